import { randomUUID } from 'node:crypto';
import type { CallerContext, DeliveryView, RiskAssessmentExecutedMessage } from '@tailsync/contracts';
import { ensureTopics, Murmur2Partitioner } from '@tailsync/service-kit';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { callbackBody } from '../intake/domain/event-message';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { eventually, infraKafka, isolatedDatabase, newSharedSecret, uniqueDomain } from '../testing/harness';
import { runningDispatcher, stopDispatcher } from '../testing/running-dispatcher';
import { WebhookReceiver } from '@tailsync/webhooks/testing';
import { BackfillRequests } from '../interface/backfill-requests';
import { SubscriptionRequests } from '../interface/subscription-requests';

const EVT = 'Product.RiskAssessmentExecuted';
const PER_SECOND = 5;

describe('backfill from the input topic (real Kafka, real PostgreSQL, real receivers)', () => {
  const topic = `test.risk-assessment-executed.backfill.${randomUUID().slice(0, 8)}`;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let runtime: DispatcherCopy;
  let producer: Producer;
  let messages: SubscriptionRequests;
  let backfills: BackfillRequests;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    await ensureTopics(infraKafka(), [{ topic, numPartitions: 3 }]);
    producer = new Kafka({ ...infraKafka(), clientId: 'backfill-spec', logLevel: logLevel.NOTHING }).producer({ createPartitioner: Murmur2Partitioner });
    await producer.connect();
    db = await isolatedDatabase('backfill');
    runtime = await runningDispatcher(db.pool, 'backfill', { WEBHOOK_RECOVERY_PER_SECOND: String(PER_SECOND) }, topic);
    ({ subscriptions: messages, backfill: backfills } = runtime.requests);
  });
  afterAll(async () => {
    await stopDispatcher(runtime);
    await producer.disconnect();
    await Promise.all(receivers.map((r) => r.close()));
    await db.drop();
  });

  const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });
  const event = (domain: string): RiskAssessmentExecutedMessage => ({ eventId: randomUUID(), domain, occurredAt: new Date().toISOString(), data: { n: 1 } });
  /** Events on the topic, keyed by their domain as the product publishes them. */
  async function published(domain: string, count: number): Promise<RiskAssessmentExecutedMessage[]> {
    const events = Array.from({ length: count }, () => event(domain));
    await producer.send({ topic, acks: -1, messages: events.map((e) => ({ key: domain, value: JSON.stringify(e) })) });
    return events;
  }
  async function subscribed() {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    const domain = uniqueDomain();
    const reply = await messages.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret() } });
    if (!reply.ok) throw new Error(JSON.stringify(reply.problem));
    return { receiver, domain };
  }
  const log = async (domain: string): Promise<DeliveryView[]> => {
    const reply = await messages.list({ caller: caller(domain), body: { limit: 200 } });
    if (!reply.ok) throw new Error(JSON.stringify(reply.problem));
    return reply.result.items;
  };
  const backfill = (domain: string, since: unknown) => backfills.backfill({ caller: caller(domain), body: { since } as { since: string } });
  /** Queues a backfill and waits until its job has finished: its view then. */
  async function backfillDone(domain: string, since: string) {
    const reply = await backfill(domain, since);
    if (!reply.ok) throw new Error(JSON.stringify(reply.problem));
    expect(reply.result).toMatchObject({ state: 'queued', eventsFound: 0, eventsStored: 0, startedAt: null });
    return finished(domain, reply.result.backfillId);
  }
  const finished = (domain: string, backfillId: string, copy = runtime) =>
    eventually(async () => {
      const view = await copy.requests.backfill.get({ caller: caller(domain), body: { backfillId } });
      return view.ok && ['done', 'failed', 'cancelled'].includes(view.result.state) ? view.result : undefined;
    }, 20_000);

  it('sends the events on the topic that have no delivery, in the topic order, at the recovery rate, behind live events', async () => {
    const { receiver, domain } = await subscribed();
    const since = new Date(Date.now() - 60_000).toISOString();
    const other = await published(uniqueDomain(), 3); // another domain's events, on the same topic
    const old = await published(domain, 10);
    // One of them was consumed and delivered already: it has a delivery, so it is not sent again.
    const [delivered] = old.splice(4, 1);
    await runtime.newDeliveries.insertMany([{ domain, eventId: delivered.eventId, eventName: EVT, body: callbackBody(EVT, delivered) }]);
    runtime.scheduler.wake();
    await receiver.waitForRequest((r) => r.headers['webhook-id'] === delivered.eventId);

    const queued = await backfill(domain, since);
    expect(queued).toMatchObject({ ok: true, result: { backfillId: expect.stringMatching(/^[0-9a-f-]{36}$/), state: 'queued' } });
    const backfillId = queued.ok ? queued.result.backfillId : '';
    // A live event consumed meanwhile goes before the backfill's queue.
    const live = event(domain);
    await runtime.newDeliveries.insertMany([{ domain, eventId: live.eventId, eventName: EVT, body: callbackBody(EVT, live) }]);
    runtime.scheduler.wake();
    expect(await finished(domain, backfillId)).toMatchObject({ state: 'done', eventsFound: 10, eventsStored: 9, startedAt: expect.any(String), finishedAt: expect.any(String) });

    const done = await eventually(async () => {
      const items = await log(domain);
      return items.length === 11 && items.every((d) => d.status === 'delivered') ? items : undefined;
    }, 20_000);
    expect(done.filter((d) => d.backfillId === backfillId).map((d) => d.eventId).sort()).toEqual(old.map((e) => e.eventId).sort());
    expect(done.find((d) => d.eventId === delivered.eventId)?.backfillId).toBeNull();

    const ids = receiver.requests.map((r) => String(r.headers['webhook-id']));
    const backfilled = receiver.requests.filter((r) => old.some((e) => e.eventId === r.headers['webhook-id']));
    expect(backfilled.map((r) => r.headers['webhook-id'])).toEqual(old.map((e) => e.eventId)); // each once, in the topic order
    expect(ids.filter((id) => id === delivered.eventId)).toHaveLength(1);
    expect(ids.some((id) => other.some((e) => e.eventId === id))).toBe(false);
    expect(ids.indexOf(live.eventId)).toBeLessThan(ids.indexOf(old[2].eventId)); // live first: only the first ones were due by then
    // 9 events at 5 a second: the k-th due k / 5 s after the backfill.
    const spread = backfilled[8].receivedAt - backfilled[0].receivedAt;
    expect(spread).toBeGreaterThanOrEqual((8 / PER_SECOND) * 1000 - 100);
    expect(receiver.requests.map((r) => JSON.parse(r.rawBody.toString()).eventId)).toEqual(ids); // the callback body is the event's

    // Again: every event has a delivery now.
    expect(await backfillDone(domain, since)).toMatchObject({ state: 'done', eventsFound: 10, eventsStored: 0 });
  });

  it('for a fifo subscription, sends the backfill in the topic order behind the live events', async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    const domain = uniqueDomain();
    await messages.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret(), ordering: 'fifo' } });
    const old = await published(domain, 5);
    expect(await backfillDone(domain, new Date(Date.now() - 60_000).toISOString())).toMatchObject({ state: 'done', eventsStored: 5 });
    const live = [event(domain), event(domain)];
    await runtime.newDeliveries.insertMany(live.map((e, k) => ({ domain, eventId: e.eventId, eventName: EVT, body: callbackBody(EVT, e), position: { partition: 0, offset: String(1_000_000 + k) } })));
    runtime.scheduler.wake();
    await receiver.waitFor(7, 20_000);
    const ids = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expect(ids.filter((id) => old.some((e) => e.eventId === id))).toEqual(old.map((e) => e.eventId));
    expect(ids.filter((id) => live.some((e) => e.eventId === id))).toEqual(live.map((e) => e.eventId));
    expect(ids.indexOf(live[1].eventId)).toBeLessThan(ids.indexOf(old[2].eventId));
  });

  it('finds nothing before since, and nothing for a domain without events', async () => {
    const { domain } = await subscribed();
    await published(domain, 2);
    expect(await backfillDone(domain, new Date(Date.now() + 0).toISOString())).toMatchObject({ state: 'done', eventsStored: 0 });
    const quiet = await subscribed();
    expect(await backfillDone(quiet.domain, new Date(Date.now() - 60_000).toISOString())).toMatchObject({ state: 'done', eventsFound: 0, eventsStored: 0 });
  });

  it('refuses a since it cannot serve, and answers 404 without a subscription and 409 while disabled', async () => {
    const { domain } = await subscribed();
    const day = 86_400_000;
    for (const [since, message] of [
      [undefined, /since is required/],
      ['yesterday', /since is required/],
      [new Date(Date.now() - 8 * day).toISOString(), /at most 7 days back/],
      [new Date(Date.now() + 60_000).toISOString(), /must not be in the future/],
    ] as const) {
      expect(await backfill(domain, since)).toMatchObject({ ok: false, problem: { kind: 'validation', fieldErrors: { since: [expect.stringMatching(message)] } } });
    }
    expect(await backfill(uniqueDomain(), new Date().toISOString())).toMatchObject({ ok: false, problem: { kind: 'not-found' } });
    await runtime.state.disableByOperator(domain);
    expect(await backfill(domain, new Date().toISOString())).toMatchObject({ ok: false, problem: { kind: 'conflict', detail: expect.stringMatching(/before backfilling/) } });
  });
});
