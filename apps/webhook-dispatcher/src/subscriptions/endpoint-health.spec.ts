import { randomUUID } from 'node:crypto';
import { TOPICS, type CallerContext, type SubscriptionView, type WebhookSubscriptionEvent } from '@tailsync/contracts';
import { metricsRegistry } from '@tailsync/service-kit';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { callbackBody } from '../intake/domain/event-message';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { ensureSubscriptionEventsTopic, eventually, infraKafka, isolatedDatabase, newSharedSecret, uniqueDomain } from '../testing/harness';
import { runningDispatcher, stopDispatcher } from '../testing/running-dispatcher';
import { scripts, WebhookReceiver } from '@tailsync/webhooks/testing';
import { SubscriptionRequests } from '../interface/subscription-requests';

const EVT = 'Product.RiskAssessmentExecuted';

describe('endpoint health (real PostgreSQL, real Kafka, real receivers)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  const runtimes: DispatcherCopy[] = [];
  let consumer: Consumer;
  const published: WebhookSubscriptionEvent[] = [];
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    db = await isolatedDatabase('health');
    await ensureSubscriptionEventsTopic();
    const kafka = new Kafka({ ...infraKafka(), clientId: 'health-spec', logLevel: logLevel.NOTHING });
    consumer = kafka.consumer({ groupId: `health-spec-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: TOPICS.webhookSubscriptions, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        published.push({ ...JSON.parse(message.value!.toString()), key: message.key?.toString() });
      },
    });
  });
  // Each test's dispatcher has its own policy: stop it before the next one claims deliveries of the shared tables.
  afterEach(async () => {
    for (const r of runtimes.splice(0)) await stopDispatcher(r);
  });
  afterAll(async () => {
    await consumer.disconnect();
    await Promise.all(receivers.map((r) => r.close()));
    await db.drop();
  });

  async function dispatcher(env: Record<string, string>) {
    const runtime = await runningDispatcher(db.pool, `health-${runtimes.length}`, { WEBHOOK_RETRY_DELAYS_MS: '20', ...env });
    runtimes.push(runtime);
    return { runtime, messages: runtime.requests.subscriptions };
  }

  const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });
  const viewOf = async (messages: SubscriptionRequests, domain: string): Promise<SubscriptionView> => {
    const reply = await messages.get({ caller: caller(domain), body: {} });
    if (!reply.ok) throw new Error('no subscription');
    return reply.result;
  };
  /** Inserts `n` deliveries and waits until each has ended. */
  async function deliver(runtime: DispatcherCopy, domain: string, n: number): Promise<void> {
    const ids = Array.from({ length: n }, () => randomUUID());
    for (const eventId of ids) {
      // one at a time, so the order of their outcomes is the order of the test
      const body = callbackBody(EVT, { eventId, domain, occurredAt: new Date().toISOString(), data: {} });
      await runtime.newDeliveries.insertMany([{ domain, eventId, eventName: EVT, body }]);
      runtime.scheduler.wake();
      await eventually(async () =>
        ['delivered', 'failed'].includes((await db.pool.query('select status from webhook_deliveries where event_id = $1', [eventId])).rows[0]?.status));
    }
  }
  const eventsOf = (domain: string) => published.filter((e) => e.domain === domain);

  it('tracks successes and failures, disables a subscription whose every delivery fails, and Enable brings it back', async () => {
    const { runtime, messages } = await dispatcher({ WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_DISABLE_AFTER_HOURS: '0' });
    const receiver = await WebhookReceiver.start(scripts.status(500));
    receivers.push(receiver);
    const domain = uniqueDomain();
    const secret = newSharedSecret();
    await messages.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, sharedSecret: secret } });
    expect((await viewOf(messages, domain)).health).toEqual({ lastSuccessAt: null, lastFailureAt: null, failedDeliveriesInARow: 0 });

    await deliver(runtime, domain, 2);
    const twoFailed = await viewOf(messages, domain);
    expect(twoFailed).toMatchObject({ status: 'active', health: { lastSuccessAt: null, lastFailureAt: expect.any(String), failedDeliveriesInARow: 2 } });

    receiver.answer(scripts.status(200));
    await deliver(runtime, domain, 1);
    expect((await viewOf(messages, domain)).health).toMatchObject({ lastSuccessAt: expect.any(String), failedDeliveriesInARow: 0 });

    receiver.answer(scripts.status(503));
    await deliver(runtime, domain, 2);
    expect(await viewOf(messages, domain)).toMatchObject({ status: 'active', health: { failedDeliveriesInARow: 2 } });
    await deliver(runtime, domain, 1);
    const disabled = await viewOf(messages, domain);
    expect(disabled).toMatchObject({ status: 'disabled', disabledReason: 'failing', disabledAt: expect.any(String), health: { failedDeliveriesInARow: 3 } });

    const enabled = await messages.enable({ caller: caller(domain), body: {} });
    expect(enabled).toMatchObject({ ok: true, result: { status: 'active', disabledReason: null, disabledAt: null, health: { failedDeliveriesInARow: 0 } } });
    expect(await messages.enable({ caller: caller(uniqueDomain()), body: {} })).toMatchObject({ ok: false, problem: { kind: 'not-found' } });

    await eventually(async () => eventsOf(domain).length >= 3, 15_000).catch((e) => { throw new Error(`${e}; got ${JSON.stringify(published.slice(-5))}`); });
    expect(eventsOf(domain).map((e) => [e.type, e.data])).toEqual([
      ['SubscriptionSaved', { url: receiver.url }],
      ['SubscriptionDisabled', { url: receiver.url, reason: 'failing' }],
      ['SubscriptionEnabled', { url: receiver.url, reason: 'enable' }],
    ]);
    for (const e of eventsOf(domain)) {
      expect(e).toMatchObject({ eventId: expect.stringMatching(/^[0-9a-f-]{36}$/), key: domain, occurredAt: expect.any(String) });
      expect(JSON.stringify(e)).not.toContain(secret);
    }
    // The relay counts an event once the broker has it, which may be just after a consumer sees it.
    await eventually(async () => /webhook_subscription_events_total\{type="SubscriptionDisabled",outcome="published"\} [1-9]/.test(await metricsRegistry.metrics()), 5_000);
  });

  it('disables only once the run of failures is old enough (WEBHOOK_DISABLE_AFTER_HOURS)', async () => {
    const { runtime, messages } = await dispatcher({ WEBHOOK_DISABLE_AFTER_FAILURES: '2', WEBHOOK_DISABLE_AFTER_HOURS: '1' });
    const receiver = await WebhookReceiver.start(scripts.status(500));
    receivers.push(receiver);
    const domain = uniqueDomain();
    await messages.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret() } });
    await deliver(runtime, domain, 3);
    expect(await viewOf(messages, domain)).toMatchObject({ status: 'active', health: { failedDeliveriesInARow: 3 } });
    // the run began two hours ago
    await db.pool.query(`update webhook_subscriptions set failing_since = now() - interval '2 hours' where domain = $1`, [domain]);
    await deliver(runtime, domain, 1);
    expect(await viewOf(messages, domain)).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
  });

  it("an operator disables a subscription (reason operator, announced once), idempotently; the operator's Enable brings it back", async () => {
    const { runtime, messages } = await dispatcher({});
    const domain = uniqueDomain();
    const url = 'http://127.0.0.1:9/hook';
    await messages.put({ caller: caller(domain), body: { eventNames: [EVT], url, sharedSecret: newSharedSecret() } });

    const disabled = await messages.disable({ caller: caller(domain), body: {} });
    expect(disabled).toMatchObject({ ok: true, result: { status: 'disabled', disabledReason: 'operator', disabledAt: expect.any(String) } });
    expect(await messages.disable({ caller: caller(domain), body: {} })).toEqual(disabled);
    expect(await runtime.state.disable(domain, 'gone')).toBeNull(); // a 410 meanwhile does not replace the operator's reason
    expect(await viewOf(messages, domain)).toMatchObject({ status: 'disabled', disabledReason: 'operator' });
    expect(await messages.disable({ caller: caller(uniqueDomain()), body: {} })).toMatchObject({ ok: false, problem: { kind: 'not-found' } });
    expect(await messages.enableByOperator({ caller: caller(domain), body: {} })).toMatchObject({ ok: true, result: { status: 'active', disabledReason: null, disabledAt: null } });

    await eventually(async () => eventsOf(domain).length >= 3, 15_000).catch((e) => { throw new Error(`${e}; got ${JSON.stringify(eventsOf(domain))}`); });
    expect(eventsOf(domain).map((e) => [e.type, e.data])).toEqual([
      ['SubscriptionSaved', { url }],
      ['SubscriptionDisabledByOperator', { url, reason: 'operator' }],
      ['SubscriptionEnabled', { url, reason: 'enable' }],
    ]);
    await eventually(async () => /webhook_subscription_events_total\{type="SubscriptionDisabledByOperator",outcome="published"\} [1-9]/.test(await metricsRegistry.metrics()), 5_000);
  });

  it("an operator's Disable holds against the tenant's Enable, saves and delete, also when they race it, until an operator enables", async () => {
    const { runtime, messages } = await dispatcher({});
    const domain = uniqueDomain();
    const body = () => ({ eventNames: [EVT], url: 'http://127.0.0.1:9/hook', sharedSecret: newSharedSecret() });
    await messages.put({ caller: caller(domain), body: body() });
    // Tenant saves racing the operator's Disable: whatever their order, the subscription ends disabled by the operator.
    const raced = await Promise.all([
      ...Array.from({ length: 5 }, () => messages.put({ caller: caller(domain), body: body() })),
      messages.disable({ caller: caller(domain), body: {} }),
      ...Array.from({ length: 5 }, () => messages.enable({ caller: caller(domain), body: {} })),
    ]);
    expect(raced.every((r) => r.ok || r.problem.kind === 'conflict')).toBe(true);
    const held = { ok: false, problem: { kind: 'conflict', detail: expect.stringMatching(/disabled by the operator/) } };
    expect(await messages.enable({ caller: caller(domain), body: {} })).toMatchObject(held);
    expect(await messages.put({ caller: caller(domain), body: body() })).toMatchObject(held);
    expect(await messages.delete({ caller: caller(domain), body: {} })).toMatchObject(held);
    expect(await viewOf(messages, domain)).toMatchObject({ status: 'disabled', disabledReason: 'operator' });

    expect(await messages.enableByOperator({ caller: caller(domain), body: {} })).toMatchObject({ ok: true, result: { status: 'active' } });
    expect(await messages.put({ caller: caller(domain), body: body() })).toMatchObject({ ok: true, result: { status: 'active' } });
    await runtime.state.disable(domain, 'gone');
    expect(await messages.enable({ caller: caller(domain), body: {} })).toMatchObject({ ok: true, result: { status: 'active' } }); // the tenant's own reasons stay the tenant's
  });

  it("an operator's Disable leaves a subscription the endpoint disabled as it was, with its reason", async () => {
    const { runtime, messages } = await dispatcher({});
    const domain = uniqueDomain();
    await messages.put({ caller: caller(domain), body: { eventNames: [EVT], url: 'http://127.0.0.1:9/hook', sharedSecret: newSharedSecret() } });
    await runtime.state.disable(domain, 'gone');
    const gone = await viewOf(messages, domain);
    expect(await messages.disable({ caller: caller(domain), body: {} })).toEqual({ ok: true, result: gone });
    expect(gone).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
  });

  it('announces saves, rotations, enabling by a save and deletes', async () => {
    const { runtime, messages } = await dispatcher({});
    const domain = uniqueDomain();
    const url = 'http://127.0.0.1:9/hook';
    const save = () => messages.put({ caller: caller(domain), body: { eventNames: [EVT], url, sharedSecret: newSharedSecret() } });
    await save();
    await runtime.state.disable(domain, 'gone');
    const rotated = await save();
    await messages.delete({ caller: caller(domain), body: {} });
    await eventually(async () => eventsOf(domain).length >= 6, 15_000).catch((e) => { throw new Error(`${e}; got ${published.length}: ${JSON.stringify(published.slice(-3))}`); });
    expect(eventsOf(domain).map((e) => [e.type, e.data])).toEqual([
      ['SubscriptionSaved', { url }],
      ['SubscriptionDisabled', { url, reason: 'gone' }],
      ['SubscriptionSaved', { url }],
      ['SecretRotated', { url, previousSecretValidUntil: rotated.ok && rotated.result.previousSecretValidUntil }],
      ['SubscriptionEnabled', { url, reason: 'saved' }],
      ['SubscriptionDeleted', {}],
    ]);
  });
});
