import { randomUUID } from 'node:crypto';
import { verifyWebhookRequest } from '@tailsync/webhooks';
import { scripts, WebhookReceiver } from '@tailsync/webhooks/testing';
import { SubscriptionState } from '../subscriptions/subscription-state';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { deliveryStores, eventually, isolatedDatabase, newSharedSecret, sleep, startedEventsPublisher, subscriptionInput, testKey, uniqueDomain } from '../testing/harness';
import type { SubscriptionEventsPublisher } from '../subscriptions/subscription-events.publisher';
import { AttemptSender } from '../attempts/attempt.sender';
import { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import { AttemptRecorder } from '../attempts/attempt.recorder';
import { AttemptRunner, type AttemptRunnerOptions } from '../attempts/attempt.runner';
import { CallbackKeys } from '../subscriptions/callback-keys';
import { WriteBehindLeases } from '../attempts/write-behind-leases';
import { FlowGate } from './flow-gate';
import { DeliveryAdmission } from '../intake/delivery-admission';
import { DeliveryScheduler, type SchedulerOptions } from './delivery.scheduler';
import { callbackBody } from '../intake/domain/event-message';
import { SecretBox } from '../sealing/secret-box';

const EVT = 'Product.RiskAssessmentExecuted';

describe('DeliveryScheduler (real PostgreSQL, real HTTP receivers)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let deliveries: ReturnType<typeof deliveryStores>;
  let subscriptions: SubscriptionStore;
  const box = new SecretBox(testKey);
  const schedulers: DeliveryScheduler[] = [];
  /** What the admissions asked of their scheduler, by member name. */
  const asked: string[] = [];
  const receivers: WebhookReceiver[] = [];

  let events: SubscriptionEventsPublisher;

  beforeAll(async () => {
    db = await isolatedDatabase('scheduler');
    events = await startedEventsPublisher(db.pool);
    deliveries = deliveryStores(db.pool);
    subscriptions = new SubscriptionStore(db.pool);
  });
  afterEach(async () => {
    await Promise.all(schedulers.splice(0).map((s) => s.stop()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(async () => {
    await events.stop();
    await db.drop();
  });

  /** A started scheduler, and the admission the consumer hands fresh deliveries to. */
  function running(options: Partial<SchedulerOptions & AttemptRunnerOptions & { leaseLingerMs: number }> = {}, sender = new AttemptSender(true)): DeliveryAdmission {
    const o = {
      owner: `test-${randomUUID().slice(0, 6)}`,
      retryDelaysMs: [100, 200],
      retryAfterMaxMs: 1000,
      attemptTimeoutMs: 1000,
      maxConcurrency: 64,
      domainConcurrency: 4,
      pollIntervalMs: 30,
      ...options,
    };
    const metrics = new DeliveryMetrics();
    const state = new SubscriptionState(subscriptions, events);
    const leaseWrites = new WriteBehindLeases(deliveries.newDeliveries, { lingerMs: options.leaseLingerMs ?? 20 });
    const recorder = new AttemptRecorder(deliveries.records, state, metrics, { lingerMs: 0 }, leaseWrites);
    const s = new DeliveryScheduler(deliveries.leases, subscriptions, new AttemptRunner(new CallbackKeys(box), sender, recorder, metrics, state, o), recorder, metrics, o, leaseWrites, new FlowGate(db.pool, 15_000));
    schedulers.push(s);
    s.start();
    return new DeliveryAdmission(deliveries.newDeliveries, noting(s), leaseWrites);
  }

  /** The scheduler as the admission sees it, noting each member it reads in `asked` (its own calls are not noted). */
  function noting(scheduler: DeliveryScheduler): DeliveryScheduler {
    return new Proxy(scheduler, {
      get(target, member) {
        asked.push(String(member));
        const value = Reflect.get(target, member, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  async function subscribe(script = scripts.status(200)) {
    const receiver = await WebhookReceiver.start(script);
    receivers.push(receiver);
    const domain = uniqueDomain();
    const secret = newSharedSecret();
    await subscriptions.put(domain, subscriptionInput(receiver.url, secret, domain), 3600);
    return { receiver, domain, secret };
  }

  async function publish(domain: string, n = 1): Promise<string[]> {
    const events = Array.from({ length: n }, () => ({ eventId: randomUUID(), domain, occurredAt: new Date().toISOString(), data: { score: 7 } }));
    await deliveries.newDeliveries.insertMany(events.map((e) => ({ domain, eventId: e.eventId, eventName: EVT, body: callbackBody(EVT, e) })));
    return events.map((e) => e.eventId);
  }

  const statusOf = async (eventId: string) =>
    (await db.pool.query('select status, attempts from webhook_deliveries where event_id = $1', [eventId])).rows[0];

  it('two schedulers, one delivery: exactly one attempt, verified by the receiver library', async () => {
    const { receiver, domain, secret } = await subscribe();
    running();
    running();
    const [eventId] = await publish(domain);
    const [request] = await receiver.waitFor(1);
    await eventually(async () => (await statusOf(eventId))?.status === 'delivered');
    await sleep(300);
    expect(receiver.requests).toHaveLength(1);
    expect(request.headers['webhook-id']).toBe(eventId);
    expect(request.headers['webhook-attempt']).toBe('1');
    const verified = verifyWebhookRequest({ authorizationHeader: request.headers.authorization, rawBody: request.rawBody, secret });
    expect(verified).toMatchObject({ ok: true, claims: { sub: domain, evt: EVT, iss: 'tailsync' } });
  });

  it('two schedulers, 200 deliveries: each attempted exactly once', async () => {
    const { receiver, domain } = await subscribe();
    running({ domainConcurrency: 16 });
    running({ domainConcurrency: 16 });
    const ids = await publish(domain, 200);
    await receiver.waitFor(200, 20_000);
    await eventually(async () => {
      const { rows } = await db.pool.query(`select count(*)::int as n from webhook_deliveries where domain = $1 and status = 'delivered'`, [domain]);
      return rows[0].n === 200;
    });
    await sleep(200);
    const seen = receiver.requests.map((r) => r.headers['webhook-id']);
    expect(new Set(seen).size).toBe(200);
    expect(seen).toHaveLength(200);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  const fresh = (domain: string, n: number) =>
    Array.from({ length: n }, () => {
      const e = { eventId: randomUUID(), domain, occurredAt: new Date().toISOString(), data: { score: 7 } };
      return { domain, eventId: e.eventId, eventName: EVT, body: callbackBody(EVT, e) };
    });

  it('admitted deliveries (fresh from the consumer) are attempted at once, without waiting for a claim', async () => {
    const { receiver, domain } = await subscribe();
    const s = running({ pollIntervalMs: 60_000 });
    await sleep(100); // the loop's first claim has run; the next would be a minute away
    const deliveries = fresh(domain, 3);
    expect(await s.admit(deliveries, await subscriptions.getMany([domain]))).toBe(3);
    await receiver.waitFor(3, 2000);
    for (const d of deliveries) await eventually(async () => (await statusOf(d.eventId))?.status === 'delivered');
    expect(receiver.requests.map((r) => r.headers['webhook-id']).sort()).toEqual(deliveries.map((d) => d.eventId).sort());
  });

  it('an admitted delivery is stored, leased to this copy, while its first attempt is in flight', async () => {
    const { receiver, domain } = await subscribe(scripts.hang());
    const owner = `admit-${randomUUID().slice(0, 6)}`;
    const s = running({ owner, attemptTimeoutMs: 2000 });
    const [d] = fresh(domain, 1);
    await s.admit([d], await subscriptions.getMany([domain]));
    await receiver.waitFor(1);
    const { rows } = await db.pool.query('select status, attempts, lease_owner, lease_until > now() as leased from webhook_deliveries where event_id = $1', [d.eventId]);
    expect(rows).toEqual([{ status: 'pending', attempts: 0, lease_owner: owner, leased: true }]);
  });

  it('admitted attempting first, a delivery is attempted before it is stored; its lease and record follow', async () => {
    const { receiver, domain } = await subscribe();
    const owner = `first-${randomUUID().slice(0, 6)}`;
    const s = running({ owner, leaseLingerMs: 3000 });
    const [d] = fresh(domain, 1);
    const { stored } = await s.admitAttemptingFirst([d], await subscriptions.getMany([domain]));
    await receiver.waitFor(1, 2000);
    expect(await statusOf(d.eventId)).toBeUndefined();
    expect(await stored).toBe(1);
    await eventually(async () => (await statusOf(d.eventId))?.status === 'delivered');
    expect(await statusOf(d.eventId)).toEqual({ status: 'delivered', attempts: 1 });
    // the same event consumed again (a producer's retry): not attempted again
    expect(await (await s.admitAttemptingFirst([d], await subscriptions.getMany([domain]))).stored).toBe(0);
    await sleep(300);
    // Its own event's calls: a retry of another test's delivery may reach a receiver that took its port.
    expect(receiver.requests.filter((r) => r.headers['webhook-id'] === d.eventId.toLowerCase())).toHaveLength(1);
  });

  it('each admission asks the scheduler once: its room, lease terms and queues are the scheduler\'s business', async () => {
    const { receiver, domain } = await subscribe();
    const s = running({ maxConcurrency: 2, domainConcurrency: 2 });
    asked.length = 0;
    expect(await s.admit(fresh(domain, 3), await subscriptions.getMany([domain]))).toBe(3);
    expect(asked).toEqual(['admit']);
    asked.length = 0;
    expect(await (await s.admitAttemptingFirst(fresh(domain, 3), await subscriptions.getMany([domain]))).stored).toBe(3);
    expect(asked).toEqual(['admitAttemptingFirst']);
    await receiver.waitFor(6);
  });

  it('admitting first, fails the batch (consumed again) when its overflow cannot be stored, after starting the attempts it had room for', async () => {
    const { receiver, domain } = await subscribe();
    const s = running({ maxConcurrency: 1, domainConcurrency: 1 });
    const batch = fresh(domain, 3); // room for two: one running, one queued
    const refused = jest.spyOn(deliveries.newDeliveries, 'insertMany').mockRejectedValueOnce(new Error('connection lost'));
    try {
      await expect(s.admitAttemptingFirst(batch, await subscriptions.getMany([domain]))).rejects.toThrow('connection lost');
    } finally {
      refused.mockRestore();
    }
    await receiver.waitFor(2, 3000);
    // consumed again: the two leased lately are not attempted twice, the third is stored for the claims
    const { stored } = await s.admitAttemptingFirst(batch, await subscriptions.getMany([domain]));
    expect(await stored).toBe(1);
    for (const d of batch) await eventually(async () => (await statusOf(d.eventId))?.status === 'delivered');
    await sleep(200);
    expect(receiver.requests.map((r) => r.headers['webhook-id']).sort()).toEqual(batch.map((d) => d.eventId).sort());
  });

  it('an event the next owner holds while the previous owner is attempting it is attempted once: the late lease takes the held row over', async () => {
    // The first attempt hangs until its 1 s time limit: its record, which writes the lease first, cannot land before the hold.
    const { receiver, domain } = await subscribe((r) => (r.n === 1 ? { hang: true } : { status: 503 }));
    const previous = running({ leaseLingerMs: 3000, retryDelaysMs: [300], attemptTimeoutMs: 1000 });
    const next = running({ retryDelaysMs: [300] });
    const [d] = fresh(domain, 1);
    await previous.admitAttemptingFirst([d], await subscriptions.getMany([domain]));
    await receiver.waitFor(1, 2000);
    const heldAt = Date.now();
    expect(await next.hold([d], 4000)).toBe(1); // read again by the partition's next owner before the lease is written
    // the previous owner's retry (its lease, then its record, took the row over) is the only second attempt
    await eventually(async () => (await statusOf(d.eventId))?.status === 'failed', 8000);
    await sleep(Math.max(0, heldAt + 4500 - Date.now())); // past the hold: the held row is not attempted again
    expect(receiver.requests.map((r) => r.headers['webhook-attempt'])).toEqual(['1', '2']);
    expect(await statusOf(d.eventId)).toEqual({ status: 'failed', attempts: 2 });
  });

  it('a held event nobody takes over (its previous owner died) is attempted once the hold is over', async () => {
    const { receiver, domain } = await subscribe();
    const s = running();
    const [d] = fresh(domain, 1);
    const held = Date.now();
    expect(await s.hold([d], 400)).toBe(1);
    const [request] = await receiver.waitFor(1, 3000);
    expect(request.receivedAt - held).toBeGreaterThanOrEqual(350);
    await eventually(async () => (await statusOf(d.eventId))?.status === 'delivered');
  });

  it('beyond its room, admitted deliveries are left to the claims; two copies attempt each exactly once', async () => {
    const { receiver, domain } = await subscribe();
    const narrow = running({ maxConcurrency: 1, domainConcurrency: 1 });
    running();
    const deliveries = fresh(domain, 20);
    expect(await narrow.admit(deliveries, await subscriptions.getMany([domain]))).toBe(20);
    // the same events consumed again (a redelivered Kafka batch): nothing new
    expect(await narrow.admit(deliveries, await subscriptions.getMany([domain]))).toBe(0);
    await receiver.waitFor(20, 10_000);
    for (const d of deliveries) await eventually(async () => (await statusOf(d.eventId))?.status === 'delivered');
    await sleep(200);
    const seen = receiver.requests.map((r) => r.headers['webhook-id']);
    expect(seen).toHaveLength(20);
    expect(new Set(seen)).toEqual(new Set(deliveries.map((d) => d.eventId)));
  });

  it('a delivery left leased by a copy that died after storing it is attempted by another once the lease runs out', async () => {
    const { receiver, domain } = await subscribe();
    const [d] = fresh(domain, 1);
    await deliveries.newDeliveries.insertLeased([d], 'died-after-insert', 400);
    const stored = Date.now();
    running();
    const [request] = await receiver.waitFor(1, 3000);
    expect(request.receivedAt - stored).toBeGreaterThanOrEqual(350);
    await eventually(async () => (await statusOf(d.eventId))?.status === 'delivered');
    expect(receiver.requests).toHaveLength(1);
  });

  it('retries 503 on the schedule, then delivers; Webhook-Id stable, token fresh per attempt', async () => {
    const { receiver, domain } = await subscribe(scripts.sequence(503, 503, 200));
    running();
    const [eventId] = await publish(domain);
    const requests = await receiver.waitFor(3);
    await eventually(async () => (await statusOf(eventId))?.status === 'delivered');
    expect(requests.map((r) => r.headers['webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    expect(new Set(requests.map((r) => r.headers.authorization)).size).toBe(3);
    expect(new Set(requests.map((r) => r.rawBody.toString()))).toEqual(new Set([requests[0].rawBody.toString()]));
    // gaps follow the schedule (100 ms, then 200 ms), give or take the polling
    expect(requests[1].receivedAt - requests[0].receivedAt).toBeGreaterThanOrEqual(90);
    expect(requests[2].receivedAt - requests[1].receivedAt).toBeGreaterThanOrEqual(190);
  });

  it.each([
    ['always 500: 3 attempts, then failed', scripts.status(500), 3, 'failed'],
    ['401: 1 attempt, then failed', scripts.status(401), 1, 'failed'],
    ['301 (not followed): 1 attempt, then failed', () => ({ status: 301, headers: { Location: 'http://127.0.0.1:1/' } }), 1, 'failed'],
    ['429 then 200: 2 attempts, delivered', scripts.sequence(429, 200), 2, 'delivered'],
  ] as const)('%s', async (_name, script, attempts, status) => {
    const { receiver, domain } = await subscribe(script);
    running();
    const [eventId] = await publish(domain);
    await receiver.waitFor(attempts);
    await eventually(async () => (await statusOf(eventId))?.status === status);
    await sleep(400);
    expect(receiver.requests).toHaveLength(attempts);
    expect(await statusOf(eventId)).toEqual({ status, attempts });
  });

  const attemptsOf = async (eventId: string) =>
    (await db.pool.query(
      'select a.attempt, a.status_code, a.retry_after_ms from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.event_id = $1 order by a.attempt',
      [eventId],
    )).rows;
  const httpDate = (ms: number): string => new Date(ms).toUTCString();

  it.each([
    ['delta-seconds on 503', () => ({ status: 503, headers: { 'Retry-After': '1' } }), 1000],
    ['an HTTP-date on 429, capped at WEBHOOK_RETRY_AFTER_MAX_MS', () => ({ status: 429, headers: { 'Retry-After': httpDate(Date.now() + 5000) } }), 1000],
  ] as const)('Retry-After (%s) moves the next attempt later', async (_name, first, expectedMs) => {
    const { receiver, domain } = await subscribe(scripts.sequence(200));
    receiver.answer((r) => (r.n === 1 ? first() : { status: 200 }));
    running({ retryAfterMaxMs: 1000 });
    const [eventId] = await publish(domain);
    const [one, two] = await receiver.waitFor(2, 5000);
    expect(two.receivedAt - one.receivedAt).toBeGreaterThanOrEqual(expectedMs - 50);
    expect(two.receivedAt - one.receivedAt).toBeLessThan(expectedMs + 900);
    await eventually(async () => (await statusOf(eventId))?.status === 'delivered');
    expect((await attemptsOf(eventId)).map((a) => a.retry_after_ms)).toEqual([expectedMs, null]);
  });

  it.each([
    ['a date in the past', 503, (): string => httpDate(Date.now() - 60_000)],
    ['garbage', 429, (): string => 'soon, please'],
    ['an ISO date', 503, (): string => new Date(Date.now() + 5000).toISOString()],
    ['a valid value on 500 (only 429 and 503 count)', 500, (): string => '1'],
  ])('Retry-After with %s changes nothing', async (_name: string, status: number, value: () => string) => {
    const { receiver, domain } = await subscribe();
    receiver.answer((r) => (r.n === 1 ? { status, headers: { 'Retry-After': value() } } : { status: 200 }));
    running({ retryAfterMaxMs: 5000 });
    const [eventId] = await publish(domain);
    const [one, two] = await receiver.waitFor(2, 5000);
    expect(two.receivedAt - one.receivedAt).toBeLessThan(800);
    await eventually(async () => (await statusOf(eventId))?.status === 'delivered');
    expect((await attemptsOf(eventId)).map((a) => a.retry_after_ms)).toEqual([null, null]);
  });

  it('Retry-After never adds attempts: always 503 with Retry-After is still 3 attempts, then failed', async () => {
    const { receiver, domain } = await subscribe(() => ({ status: 503, headers: { 'Retry-After': '1' } }));
    running({ retryAfterMaxMs: 300 });
    const [eventId] = await publish(domain);
    await eventually(async () => (await statusOf(eventId))?.status === 'failed', 5000);
    await sleep(500);
    expect(receiver.requests).toHaveLength(3);
    expect(await statusOf(eventId)).toEqual({ status: 'failed', attempts: 3 });
    expect((await attemptsOf(eventId)).map((a) => a.retry_after_ms)).toEqual([300, 300, 300]);
  });

  it('410 Gone ends the delivery failed at once and disables the subscription; later deliveries are not sent', async () => {
    const { receiver, domain } = await subscribe(scripts.status(410));
    running();
    const [gone] = await publish(domain);
    await eventually(async () => (await statusOf(gone))?.status === 'failed');
    const sub = await eventually(async () => {
      const s = await subscriptions.get(domain);
      return s?.status === 'disabled' ? s : undefined;
    });
    expect(sub).toMatchObject({ status: 'disabled', disabledReason: 'gone', disabledAt: expect.any(Date) });
    const [later] = await publish(domain);
    await eventually(async () => (await statusOf(later))?.status === 'failed');
    expect(receiver.requests).toHaveLength(1);
    const { rows } = await db.pool.query('select a.error, a.status_code from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.event_id = $1', [later]);
    expect(rows).toEqual([{ error: 'the subscription is disabled (gone); nothing was sent', status_code: null }]);
  });

  it('a hanging receiver times out and is retried; other domains are not held up', async () => {
    const slow = await subscribe(scripts.hang());
    const fast = await subscribe();
    running({ attemptTimeoutMs: 2000, domainConcurrency: 2, retryDelaysMs: [50] });
    await publish(slow.domain, 6);
    await slow.receiver.waitFor(2);
    const started = Date.now();
    const [eventId] = await publish(fast.domain);
    await fast.receiver.waitFor(1, 2000);
    // the slow domain's attempts hang for 2 s each; a domain held up by them would wait that long at least
    expect(Date.now() - started).toBeLessThan(1500);
    // the hanging domain holds no more than its 2 slots, though 6 of its deliveries are due
    expect(slow.receiver.requests).toHaveLength(2);
    await eventually(async () => (await statusOf(eventId))?.status === 'delivered');
    await eventually(async () => (await db.pool.query(
      `select a.error from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.domain = $1`, [slow.domain])).rows.length > 0, 8000);
    const errors = (await db.pool.query(
      `select a.error from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.domain = $1`, [slow.domain])).rows;
    expect(errors[0].error).toMatch(/no response within 2000 ms/);
  });

  it('uses the subscription current at attempt time; a deleted one ends the delivery failed', async () => {
    const { receiver, domain } = await subscribe();
    await subscriptions.delete(domain);
    running();
    const [eventId] = await publish(domain);
    await eventually(async () => (await statusOf(eventId))?.status === 'failed');
    expect(receiver.requests).toHaveLength(0);
    const { rows } = await db.pool.query('select a.error, a.status_code from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.event_id = $1', [eventId]);
    expect(rows).toEqual([{ error: expect.stringMatching(/no subscription/), status_code: null }]);
  });

  it('refuses a private address at connect time when private URLs are not allowed', async () => {
    const { receiver, domain } = await subscribe();
    await subscriptions.put(domain, subscriptionInput(receiver.url.replace('127.0.0.1', 'localhost'), newSharedSecret(), domain), 3600);
    const other = uniqueDomain();
    await subscriptions.put(other, subscriptionInput(receiver.url, newSharedSecret(), other), 3600);
    running({}, new AttemptSender(false));
    const [a] = await publish(domain);
    const [b] = await publish(other);
    await eventually(async () => (await statusOf(a))?.status === 'failed' && (await statusOf(b))?.status === 'failed');
    expect(receiver.requests).toHaveLength(0);
    const { rows } = await db.pool.query('select a.error from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.event_id = any($1::uuid[])', [[a, b]]);
    expect(rows.map((r) => r.error)).toEqual([expect.stringMatching(/public address/), expect.stringMatching(/public address/)]);
  });
});
