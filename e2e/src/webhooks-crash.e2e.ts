/**
 * Webhooks with dispatchers of their own: the shared stack's dispatcher is killed (SIGKILL) and
 * replaced by copies with a slower schedule (WEBHOOK_RETRY_DELAYS_MS=1000,1000: 3 attempts) and a
 * 1 s attempt timeout, so a hanging receiver's whole schedule and a crash while retries are pending
 * fit in seconds. Then one copy runs with the SSRF guard on (WEBHOOK_ALLOW_PRIVATE_URLS=false).
 * At the end a dispatcher with the shared settings takes its place again for the other test files.
 */
import { randomBytes } from 'node:crypto';
import type { AppProcess } from '@tailsync/stack';
import { verifyWebhookRequest } from '@tailsync/webhooks';
import { publishRiskAssessments } from '@tailsync/tools/testing';
import { api, newServiceAccount, TestAccount } from './support/accounts';
import { ReceivedRequest, ReceiverScript, scripts, WebhookReceiver } from './support/receiver';
import { baseUrl, E2E_PORTS, killSharedApp, replaceSharedApp, startApp, waitForHttp } from './support/test-stack';
import { eventually, sleep } from './support/eventually';
import { principalKafka } from './support/kafka';

const EVT = 'Product.RiskAssessmentExecuted';
const DEDICATED = { WEBHOOK_RETRY_DELAYS_MS: '1000,1000', WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000' };
const dispatcherUrl = () => process.env.E2E_DISPATCHER_URL ?? `http://127.0.0.1:${E2E_PORTS['webhook-dispatcher']}`;
const dispatcherPort = () => new URL(dispatcherUrl()).port;
const newSecret = () => randomBytes(48).toString('hex');

let current: AppProcess | undefined;
const receivers: WebhookReceiver[] = [];

/** Starts a dispatcher copy in the shared one's place and waits until the gateway reaches it over gRPC. */
async function startDispatcher(instance: string, env: Record<string, string>): Promise<AppProcess> {
  const app = startApp('webhook-dispatcher', instance, { WEBHOOK_DISPATCHER_HTTP_PORT: dispatcherPort(), ...env });
  await waitForHttp(`${dispatcherUrl()}/health/ready`, 60_000, [app]);
  await waitForHttp(`${baseUrl()}/health/ready`, 60_000, [app]);
  return app;
}

async function subscribed(script: ReceiverScript): Promise<{ account: TestAccount; receiver: WebhookReceiver; secret: string }> {
  const [account, receiver] = await Promise.all([newServiceAccount(), WebhookReceiver.start(script)]);
  receivers.push(receiver);
  const secret = newSecret();
  expect((await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: receiver.url, sharedSecret: secret })).status).toBe(200);
  return { account, receiver, secret };
}

const publish = (domain: string, count = 1) =>
  publishRiskAssessments({ kafka: principalKafka('product'), domain, count, data: { score: 1 } });

async function allDeliveries(account: TestAccount): Promise<any[]> {
  const items = [];
  let cursor: string | null = null;
  do {
    const res: { body: { items: any[]; nextCursor: string | null } } = await api(
      account, 'GET', `/WebhookSubscriptions/Deliveries?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
  } while (cursor);
  return items;
}


const attemptNumbers = (requests: ReceivedRequest[], eventId: string) =>
  requests.filter((r) => r.headers['webhook-id'] === eventId).map((r) => Number(r.headers['webhook-attempt']));

beforeAll(async () => {
  killSharedApp('webhook-dispatcher');
  current = await startDispatcher('dispatcher-dedicated-a', DEDICATED);
}, 90_000);

afterAll(async () => {
  await current?.stop();
  await Promise.all(receivers.map((r) => r.close()));
  // The other test files expect a dispatcher with the shared settings.
  if (process.env.E2E_DISPATCHER_URL) await startDispatcher(`webhook-dispatcher-restored-${Date.now()}`, {});
  else await replaceSharedApp('webhook-dispatcher');
}, 90_000);

describe('a receiver that hangs past the attempt timeout', () => {
  it('gets exactly 3 attempts, each cut at the timeout, then the delivery fails', async () => {
    const s = await subscribed(scripts.hang());
    const [event] = await publish(s.account.domain);
    await s.receiver.waitFor(3, 15_000);
    const delivery = await eventually(async () => (await allDeliveries(s.account)).find((d) => d.eventId === event.eventId && d.status === 'failed'), 10_000);
    await sleep(1500);
    expect(s.receiver.requests.map((r) => r.headers['webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(delivery.attempts).toEqual(
      [1, 2, 3].map((attempt) => ({ attempt, at: expect.any(String), statusCode: null, durationMs: expect.any(Number), error: 'no response within 1000 ms', retryAfterMs: null })),
    );
    for (const a of delivery.attempts) expect(a.durationMs).toBeGreaterThanOrEqual(990);
  });
});

describe('kill -9 while retries are pending', () => {
  it('ends every consumed event delivered or failed after the scheduled attempts (at most the in-flight one repeated)', async () => {
    const N = 20;
    const failing = await subscribed(scripts.status(500));
    // 503 on attempts 1 and 2 of every event, 200 on the 3rd
    const recovering = await subscribed((r) => ({ status: Number(r.headers['webhook-attempt']) >= 3 ? 200 : 503 }));
    const healthy = await subscribed(scripts.status(200));

    const failingEvents = await publish(failing.account.domain, N);
    const recoveringEvents = await publish(recovering.account.domain, N);
    await failing.receiver.waitFor(N, 15_000);
    await recovering.receiver.waitFor(N, 15_000);
    // every event has had its first attempt; the second is due 1 s later: kill now, with events still arriving
    const healthyEvents = await publish(healthy.account.domain, N);
    await current!.kill();
    const killedAt = Date.now();
    const secondAttemptsBeforeKill = failing.receiver.requests.filter((r) => r.headers['webhook-attempt'] === '2').length;

    current = await startDispatcher('dispatcher-dedicated-b', DEDICATED);
    console.log(`dispatcher killed with ${N - secondAttemptsBeforeKill} of ${N} second attempts pending; replacement ready after ${Date.now() - killedAt} ms`);

    const ended = async (account: TestAccount, count: number) => {
      const items = await allDeliveries(account);
      return items.length === count && items.every((d) => d.status !== 'pending') ? items : undefined;
    };
    const [failed, recovered, delivered] = await Promise.all([
      eventually(() => ended(failing.account, N), 40_000),
      eventually(() => ended(recovering.account, N), 40_000),
      eventually(() => ended(healthy.account, N), 40_000),
    ]);
    await sleep(2500); // nothing more may arrive

    for (const e of failingEvents) {
      const d = failed.find((x: { eventId: string }) => x.eventId === e.eventId);
      expect({ eventId: e.eventId, status: d.status, attempts: d.attempts.map((a: { statusCode: number }) => a.statusCode) })
        .toEqual({ eventId: e.eventId, status: 'failed', attempts: [500, 500, 500] });
      const seen = attemptNumbers(failing.receiver.requests, e.eventId);
      expect(new Set(seen)).toEqual(new Set([1, 2, 3]));
      expect(seen.length).toBeLessThanOrEqual(4);
    }
    for (const e of recoveringEvents) {
      const d = recovered.find((x: { eventId: string }) => x.eventId === e.eventId);
      expect({ status: d.status, attempts: d.attempts.map((a: { statusCode: number }) => a.statusCode) }).toEqual({ status: 'delivered', attempts: [503, 503, 200] });
      const seen = attemptNumbers(recovering.receiver.requests, e.eventId);
      expect(new Set(seen)).toEqual(new Set([1, 2, 3]));
      expect(seen.length).toBeLessThanOrEqual(4);
    }
    for (const e of healthyEvents) {
      const d = delivered.find((x: { eventId: string }) => x.eventId === e.eventId);
      expect({ status: d.status, attempts: d.attempts.length }).toEqual({ status: 'delivered', attempts: 1 });
      expect(attemptNumbers(healthy.receiver.requests, e.eventId).length).toBeGreaterThanOrEqual(1);
      expect(attemptNumbers(healthy.receiver.requests, e.eventId).length).toBeLessThanOrEqual(2);
    }
    const repeated = [failing, recovering, healthy].reduce((n, s) => n + s.receiver.requests.length, 0) - (3 * N + 3 * N + N);
    console.log(`after the crash: ${repeated} attempt(s) repeated over ${3 * N} events`);
    // a repeated attempt is still a valid, verifiable request
    for (const r of healthy.receiver.requests) {
      expect(verifyWebhookRequest({ authorizationHeader: r.headers.authorization, rawBody: r.rawBody, secret: healthy.secret }).ok).toBe(true);
    }
  });
});

describe('kill -9 between a first attempt and the write of its lease', () => {
  it('reads the event again after the restart and attempts it until it is delivered', async () => {
    // At a steady trickle a first attempt starts before its lease is written (within 100 ms): kill as it arrives.
    let killed: Promise<void> | undefined;
    const s = await subscribed((r) => {
      if (r.n === 1) killed = current!.kill();
      return { status: r.n === 1 ? 503 : 200 };
    });
    const [event] = await publish(s.account.domain, 1);
    await s.receiver.waitFor(1, 15_000);
    await killed;
    current = await startDispatcher('dispatcher-dedicated-c', DEDICATED);
    const delivery = await eventually(
      async () => (await allDeliveries(s.account)).find((d) => d.eventId === event.eventId && d.status === 'delivered'),
      30_000,
    );
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode).at(-1)).toBe(200);
    expect(attemptNumbers(s.receiver.requests, event.eventId)).toEqual([1, 1]);
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE_URLS=false', () => {
  let account: TestAccount;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // saved while private URLs are still allowed, to see the connect-time check refuse it afterwards
    ({ account, receiver } = await subscribed(scripts.status(200)));
    await current!.stop();
    current = await startDispatcher('dispatcher-guarded', { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
  }, 90_000);

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.1.2.3/hook',
    'http://192.168.0.10/hook',
    'http://100.64.0.1/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://0x7f000001/hook',
    'http://[fd00::1]/hook',
    'http://224.0.0.1/hook',
  ])('refuses %s at save time (400 under url)', async (url) => {
    const other = await newServiceAccount();
    const res = await api(other, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url, sharedSecret: newSecret() });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fieldErrors)).toEqual(['url']);
    expect(res.body.fieldErrors.url[0]).toMatch(/public address/);
    expect((await api(other, 'GET', '/WebhookSubscriptions')).status).toBe(404);
  });

  it('answers a host that does not resolve exactly as one that resolves to a non-public address', async () => {
    const other = await newServiceAccount();
    const messages = [];
    for (const url of ['https://no-such-host.invalid/hook', 'http://localhost/hook', 'http://10.1.2.3/hook']) {
      const res = await api(other, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url, sharedSecret: newSecret() });
      expect(res.status).toBe(400);
      messages.push(res.body.fieldErrors.url);
    }
    expect(new Set(messages.map((m) => JSON.stringify(m))).size).toBe(1);
    expect(JSON.stringify(messages[0])).not.toMatch(/ENOTFOUND|EAI_AGAIN|resolved/);
  });

  it('accepts a public address', async () => {
    const other = await newServiceAccount();
    const res = await api(other, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: 'https://93.184.215.14/hook', sharedSecret: newSecret() });
    expect(res.status).toBe(200);
  });

  it('refuses again at delivery time: no request reaches a private receiver saved before', async () => {
    const test = await api(account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { a: 1 } });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ success: false, diagnostics: { statusCode: null, error: expect.stringMatching(/public address/) } });
    const [event] = await publish(account.domain);
    const d = await eventually(async () => (await allDeliveries(account)).find((x) => x.eventId === event.eventId && x.status === 'failed'), 20_000);
    expect(d.attempts).toEqual([{ attempt: 1, at: expect.any(String), statusCode: null, durationMs: expect.any(Number), error: expect.stringMatching(/public address/), retryAfterMs: null }]);
    expect(receiver.requests).toHaveLength(0);
  });
});
