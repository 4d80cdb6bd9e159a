import { randomUUID } from 'node:crypto';
import type { CallerContext } from '@tailsync/contracts';
import { secretId, standardWebhooksSecret, verifyWebhookRequest } from '@tailsync/webhooks';
import { Webhook } from 'standardwebhooks';
import { callbackBody } from '../intake/domain/event-message';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { eventually, isolatedDatabase, newSharedSecret, sleep, uniqueDomain } from '../testing/harness';
import { runningDispatcher, stopDispatcher } from '../testing/running-dispatcher';
import { scripts, WebhookReceiver, type ReceivedRequest } from '@tailsync/webhooks/testing';
import { SubscriptionRequests } from '../interface/subscription-requests';

const EVT = 'Product.RiskAssessmentExecuted';
const GRACE = 3600;

describe('rotating the shared secret without a gap (RPC handlers, real PostgreSQL, real receivers)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let runtime: DispatcherCopy;
  let messages: SubscriptionRequests;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    db = await isolatedDatabase('rotation');
    runtime = await runningDispatcher(db.pool, 'rot', { WEBHOOK_SECRET_GRACE_SECONDS: String(GRACE), WEBHOOK_RETRY_DELAYS_MS: '600,600' });
    messages = runtime.requests.subscriptions;
  });
  afterAll(async () => {
    await stopDispatcher(runtime);
    await Promise.all(receivers.map((r) => r.close()));
    await db.drop();
  });

  const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });
  const save = async (domain: string, url: string, secret: string) => {
    const reply = await messages.put({ caller: caller(domain), body: { eventNames: [EVT], url, sharedSecret: secret } });
    if (!reply.ok) throw new Error(JSON.stringify(reply.problem));
    return reply.result;
  };
  const testCall = async (domain: string, receiver: WebhookReceiver) => {
    await messages.test({ caller: caller(domain), body: { payloadToEcho: { n: receiver.requests.length } } });
    return receiver.requests[receiver.requests.length - 1];
  };
  const standardOk = (r: ReceivedRequest, secret: string) => {
    try {
      new Webhook(standardWebhooksSecret(secret)).verify(r.rawBody.toString('utf8'), r.headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  };
  const kidOf = (r: ReceivedRequest) => JSON.parse(Buffer.from(String(r.headers.authorization).split(' ')[1].split('.')[0], 'base64url').toString()).kid;
  async function receiver(script = scripts.status(200)) {
    const r = await WebhookReceiver.start(script);
    receivers.push(r);
    return r;
  }

  it('keeps the previous secret signing for the grace period; the view says until when; re-saving the same secret is no rotation', async () => {
    const domain = uniqueDomain();
    const r = await receiver();
    const [first, second, third] = [newSharedSecret(), newSharedSecret(), newSharedSecret()];
    const created = await save(domain, r.url, first);
    expect(created).toMatchObject({ previousSecretValidUntil: null, secretUpdatedAt: created.createdAt });
    const before = await testCall(domain, r);
    expect(before.headers['webhook-signature']!.toString().split(' ')).toHaveLength(1);
    expect(kidOf(before)).toBe(secretId(first));

    const resaved = await save(domain, r.url, first);
    expect(resaved).toMatchObject({ previousSecretValidUntil: null, secretUpdatedAt: created.secretUpdatedAt });

    const t0 = Date.now();
    const rotated = await save(domain, r.url, second);
    expect(Date.parse(rotated.secretUpdatedAt)).toBeGreaterThan(Date.parse(created.secretUpdatedAt));
    expect(Math.abs(Date.parse(rotated.previousSecretValidUntil!) - (t0 + GRACE * 1000))).toBeLessThan(5000);
    const during = await testCall(domain, r);
    expect(during.headers['webhook-signature']!.toString().split(' ')).toHaveLength(2);
    expect([standardOk(during, second), standardOk(during, first), standardOk(during, newSharedSecret())]).toEqual([true, true, false]);
    expect(kidOf(during)).toBe(secretId(second)); // the JWT: always the current secret
    // a Test call: receivers take it only when told to accept test calls
    const verifyTestCall = (secret: string | string[]) => verifyWebhookRequest({ authorizationHeader: during.headers.authorization, rawBody: during.rawBody, secret, testCalls: 'accept' });
    expect(verifyTestCall([first, second]).ok).toBe(true);
    expect(verifyTestCall(first)).toMatchObject({ ok: false, code: 'invalid-signature' });
    // re-saving the new secret keeps the grace period as it was
    expect((await save(domain, r.url, second)).previousSecretValidUntil).toBe(rotated.previousSecretValidUntil);

    // rotating again drops the oldest: one previous secret at most
    await save(domain, r.url, third);
    const again = await testCall(domain, r);
    expect([standardOk(again, third), standardOk(again, second), standardOk(again, first)]).toEqual([true, true, false]);
    const view = await messages.get({ caller: caller(domain), body: {} });
    expect(JSON.stringify(view)).not.toMatch(new RegExp(`${first}|${second}|${third}`));
  });

  it('signs with the current secret alone once the grace period is over', async () => {
    const domain = uniqueDomain();
    const r = await receiver();
    const [first, second] = [newSharedSecret(), newSharedSecret()];
    await save(domain, r.url, first);
    await save(domain, r.url, second);
    await db.pool.query(`update webhook_subscriptions set previous_secret_valid_until = now() - interval '1 second' where domain = $1`, [domain]);
    const after = await testCall(domain, r);
    expect([standardOk(after, second), standardOk(after, first)]).toEqual([true, false]);
    expect((await messages.get({ caller: caller(domain), body: {} }))).toMatchObject({ ok: true, result: { previousSecretValidUntil: null } });
  });

  it('a rotation during a retry series: the next attempt carries the new kid and both signatures', async () => {
    const domain = uniqueDomain();
    const r = await receiver(scripts.sequence(503, 200));
    const [first, second] = [newSharedSecret(), newSharedSecret()];
    await save(domain, r.url, first);
    const eventId = randomUUID();
    const body = callbackBody(EVT, { eventId, domain, occurredAt: new Date().toISOString(), data: {} });
    await runtime.newDeliveries.insertMany([{ domain, eventId, eventName: EVT, body }]);
    runtime.scheduler.wake();
    await r.waitFor(1);
    await save(domain, r.url, second); // the retry is due 600 ms after the first attempt
    const [one, two] = await r.waitFor(2);
    expect(two.receivedAt - one.receivedAt).toBeGreaterThanOrEqual(550);
    expect([kidOf(one), kidOf(two)]).toEqual([secretId(first), secretId(second)]);
    expect([standardOk(one, first), standardOk(one, second)]).toEqual([true, false]);
    expect([standardOk(two, second), standardOk(two, first)]).toEqual([true, true]);
    expect(two.headers['webhook-id']).toBe(eventId);
    await eventually(async () => (await db.pool.query('select status from webhook_deliveries where event_id = $1', [eventId])).rows[0]?.status === 'delivered');
    await sleep(100);
    expect(r.requests).toHaveLength(2);
  });
});
