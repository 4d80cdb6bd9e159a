import { randomUUID } from 'node:crypto';
import type { CallerContext, DeliveryView } from '@tailsync/contracts';
import { callbackBody } from '../intake/domain/event-message';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { eventually, isolatedDatabase, newSharedSecret, sleep, uniqueDomain } from '../testing/harness';
import { runningDispatcher, stopDispatcher } from '../testing/running-dispatcher';
import { scripts, WebhookReceiver } from '@tailsync/webhooks/testing';
import { RecoveryRequests } from '../interface/recovery-requests';
import { SubscriptionRequests } from '../interface/subscription-requests';

const EVT = 'Product.RiskAssessmentExecuted';

describe('recovery after an outage and the delivery log filters (real PostgreSQL, real receivers)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let runtime: DispatcherCopy;
  let messages: SubscriptionRequests;
  let recovery: RecoveryRequests;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    db = await isolatedDatabase('recovery');
    runtime = await runningDispatcher(db.pool, 'recovery', { WEBHOOK_RETRY_DELAYS_MS: '20', WEBHOOK_RECOVERY_PER_SECOND: '5' });
    ({ subscriptions: messages, recovery } = runtime.requests);
  });
  afterAll(async () => {
    await stopDispatcher(runtime);
    await Promise.all(receivers.map((r) => r.close()));
    await db.drop();
  });

  const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });
  const req = <T>(domain: string, body: T) => ({ caller: caller(domain), body });
  async function subscribed(script = scripts.status(500)) {
    const receiver = await WebhookReceiver.start(script);
    receivers.push(receiver);
    const domain = uniqueDomain();
    await messages.put(req(domain, { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret() }));
    return { receiver, domain };
  }
  async function insert(domain: string, status: 'pending' | 'skipped' = 'pending'): Promise<string> {
    const eventId = randomUUID();
    await runtime.newDeliveries.insertMany([{ domain, eventId, eventName: EVT, body: callbackBody(EVT, { eventId, domain, occurredAt: new Date().toISOString(), data: {} }), status }]);
    runtime.scheduler.wake();
    return eventId;
  }
  const log = async (domain: string, filter: Record<string, unknown> = {}): Promise<DeliveryView[]> => {
    const reply = await messages.list(req(domain, { limit: 200, ...filter }));
    if (!reply.ok) throw new Error(JSON.stringify(reply.problem));
    return reply.result.items;
  };
  const statusOf = async (domain: string, eventId: string) => (await log(domain, { eventId }))[0]?.status;

  it('sends every failed and skipped delivery of the window again, oldest first, attempts numbered on, paced behind live events', async () => {
    const { receiver, domain } = await subscribed();
    const start = new Date(Date.now() - 1000).toISOString();
    const failed: string[] = [];
    for (let i = 0; i < 3; i++) {
      failed.push(await insert(domain));
      await sleep(5);
    }
    for (const id of failed) await eventually(async () => (await statusOf(domain, id)) === 'failed');
    const skipped = await insert(domain, 'skipped');
    const delivered = await insert(domain);
    receiver.answer(scripts.status(200));
    await eventually(async () => (await statusOf(domain, delivered)) === 'delivered');
    const later = await insert(domain, 'skipped');
    await sleep(20);
    const until = new Date().toISOString();
    await sleep(20);
    const outside = await insert(domain, 'skipped'); // created after the window's end
    expect(new Date(until) < new Date()).toBe(true);
    receiver.reset();

    const reply = await recovery.recover(req(domain, { since: start, until }));
    expect(reply).toEqual({ ok: true, result: { recoveryId: expect.stringMatching(/^[0-9a-f-]{36}$/), deliveries: 5 } });
    const { recoveryId } = (reply as { result: { recoveryId: string } }).result;
    const live = await insert(domain); // a live event right after the recovery
    const all = [...failed, skipped, later];
    for (const id of all) await eventually(async () => (await statusOf(domain, id)) === 'delivered', 10_000);
    await eventually(async () => (await statusOf(domain, live)) === 'delivered');

    const order = receiver.requests.map((r) => r.headers['webhook-id']);
    expect(order.filter((id) => id !== live)).toEqual(all); // oldest first
    expect(order.indexOf(live)).toBeLessThan(2); // live traffic is not queued behind the backlog
    // 5 per second: the 5th recovered one is sent about 0.8 s after the 1st
    const recovered = receiver.requests.filter((r) => r.headers['webhook-id'] !== live);
    expect(recovered[4].receivedAt - recovered[0].receivedAt).toBeGreaterThanOrEqual(700);
    expect(recovered.map((r) => r.headers['webhook-attempt'])).toEqual(['3', '3', '3', '1', '1']);
    const rows = await log(domain);
    expect(rows.filter((d) => d.recoveryId === recoveryId).map((d) => d.eventId).sort()).toEqual([...all].sort());
    expect(rows.find((d) => d.eventId === outside)).toMatchObject({ status: 'skipped', recoveryId: null });
    expect(rows.find((d) => d.eventId === delivered)).toMatchObject({ recoveryId: null, attempts: [expect.objectContaining({ attempt: 1 })] });
  });

  it('filters the log by event id and by time', async () => {
    const { domain } = await subscribed(scripts.status(200));
    const first = await insert(domain, 'skipped');
    await sleep(30);
    const middle = new Date().toISOString();
    await sleep(30);
    const second = await insert(domain, 'skipped');
    expect((await log(domain, { eventId: first.toUpperCase() })).map((d) => d.eventId)).toEqual([first]);
    expect((await log(domain, { since: middle })).map((d) => d.eventId)).toEqual([second]);
    expect((await log(domain, { until: middle })).map((d) => d.eventId)).toEqual([first]);
    expect((await log(domain, { status: 'skipped', since: middle, eventId: first }))).toEqual([]);
    const bad = await messages.list(req(domain, { eventId: 'x', since: 'yesterday', until: '2025-02-30' }));
    expect(bad).toMatchObject({ ok: false, problem: { kind: 'validation', fieldErrors: { eventId: [expect.any(String)], since: [expect.any(String)], until: [expect.any(String)] } } });
  });

  it('answers 400 for a bad window, 404 without a subscription, 409 while disabled', async () => {
    const { domain } = await subscribed(scripts.status(200));
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const body of [{}, { since: 'x' }, { since: iso(now) , until: iso(now - 1000) }, { since: iso(now - 32 * 86_400_000) }, { since: iso(now - 1000), until: 5 }]) {
      expect(await recovery.recover(req(domain, body as never))).toMatchObject({ ok: false, problem: { kind: 'validation' } });
    }
    expect(await recovery.recover(req(uniqueDomain(), { since: iso(now - 1000) }))).toMatchObject({ ok: false, problem: { kind: 'not-found' } });
    await runtime.state.disable(domain, 'gone');
    expect(await recovery.recover(req(domain, { since: iso(now - 1000) }))).toMatchObject({ ok: false, problem: { kind: 'conflict' } });
  });
});
