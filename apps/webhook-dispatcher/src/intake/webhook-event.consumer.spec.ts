import { randomUUID } from 'node:crypto';
import { ensureTopics } from '@tailsync/service-kit';
import { DLQ_HEADERS, RISK_ASSESSMENT_EXECUTED_SCHEMA } from '@tailsync/contracts';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { eventually, infraKafka, isolatedDatabase, sleep, uniqueDomain } from '../testing/harness';
import { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import type { NewDelivery } from '../delivery-log/delivery';
import { BatchPools } from '../delivery-log/batch-pools';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { eventTypeOnTopic } from '../testing/event-type-on-topic';
import { type DeliveryIntake, INHERITED_HOLD_MS, WebhookEventConsumer } from './webhook-event.consumer';

const EVT = 'Product.RiskAssessmentExecuted';

describe('WebhookEventConsumer (real Kafka, real PostgreSQL)', () => {
  const suffix = randomUUID().slice(0, 8);
  const topic = `test.risk-assessment-executed.${suffix}`;
  const dlqTopic = `${topic}.dlq`;
  /** A second event type, as a registry entry would add it: its own name and topic, read by the same consumer. */
  const second = { ...eventTypeOnTopic(`test.inspection-due.${suffix}`), name: 'Test.InspectionDue' };
  const connection = infraKafka();
  const kafka = new Kafka({ ...connection, clientId: 'consumer-spec', logLevel: logLevel.NOTHING });
  let producer: Producer;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let deliveries: NewDeliveries;
  let subscriptions: SubscriptionStore;
  let consumer: WebhookEventConsumer;
  /** Event ids handed on as pending deliveries (the scheduler's intake, storing them as it does unleased). */
  const admitted: string[] = [];

  beforeAll(async () => {
    await ensureTopics(connection, [{ topic, numPartitions: 3 }, { topic: dlqTopic, numPartitions: 1 }, { topic: second.input.topic, numPartitions: 2 }, { topic: second.deadLetters.topic, numPartitions: 1 }]);
    db = await isolatedDatabase('consumer');
    deliveries = new NewDeliveries(new BatchPools(db.pool));
    subscriptions = new SubscriptionStore(db.pool);
    producer = kafka.producer();
    await producer.connect();
    const intake = {
      admit: async (fresh: NewDelivery[]) => {
        admitted.push(...fresh.map((d) => d.eventId));
        return deliveries.insertMany(fresh);
      },
      admitAttemptingFirst: async (fresh: NewDelivery[]) => {
        admitted.push(...fresh.map((d) => d.eventId));
        return { stored: deliveries.insertMany(fresh) };
      },
      hold: async (fresh: NewDelivery[], holdMs: number) => {
        admitted.push(...fresh.map((d) => d.eventId));
        return deliveries.insertMany(fresh, holdMs);
      },
    };
    consumer = new WebhookEventConsumer(deliveries, subscriptions, intake, new DeliveryMetrics(), {
      kafka: connection, clientId: 'consumer-spec', groupId: `consumer-spec-${suffix}`, eventTypes: [eventTypeOnTopic(topic), second],
    });
    await consumer.start();
  });
  afterAll(async () => {
    await consumer.stop();
    await producer.disconnect();
    await db.drop();
  });

  const event = (domain: string, data: object = { score: 1 }) => ({ eventId: randomUUID(), domain, occurredAt: new Date().toISOString(), data });
  const send = (messages: { key: string | null; value: string | null }[]) => producer.send({ topic, messages });

  it('sends malformed messages to the DLQ with the reason, and keeps consuming what follows', async () => {
    const domain = uniqueDomain();
    await subscriptions.put(domain, { eventNames: [EVT], url: 'http://127.0.0.1:1/', sealedSecret: 'sealed', secretId: 'id' }, 0);
    const good = event(domain);
    const dlq = kafka.consumer({ groupId: `dlq-reader-${suffix}` });
    await dlq.connect();
    await dlq.subscribe({ topic: dlqTopic, fromBeginning: true });
    const dead: { key: string | null; value: string | null; reason: string; offset: string; producerId: string }[] = [];
    await dlq.run({
      eachMessage: async ({ message }) => {
        dead.push({
          key: message.key?.toString() ?? null,
          value: message.value?.toString() ?? null,
          reason: message.headers?.[DLQ_HEADERS.reason]?.toString() ?? '',
          offset: message.headers?.[DLQ_HEADERS.offset]?.toString() ?? '',
          // Of the batch the broker stored it in: -1 unless an idempotent producer wrote it.
          producerId: (message as typeof message & { batchContext: { producerId: string } }).batchContext.producerId,
        });
      },
    });
    await send([
      { key: domain, value: '{not json' },
      { key: domain, value: JSON.stringify({ ...event(domain), eventId: 'x' }) },
      { key: domain, value: null },
    ]);
    await send([{ key: domain, value: JSON.stringify(good) }]);
    await eventually(async () => dead.length >= 3, 15_000);
    await dlq.disconnect();
    // The reasons come from the published JSON Schema (after the value was read as JSON at all).
    expect(dead.map((d) => d.reason).sort()).toEqual(
      [`/eventId must match pattern "${RISK_ASSESSMENT_EXECUTED_SCHEMA.properties!.eventId.pattern}"`, 'empty message value', 'value is not valid UTF-8 JSON'].sort(),
    );
    expect(dead.find((d) => /JSON/.test(d.reason))).toMatchObject({ key: domain, value: '{not json', offset: expect.stringMatching(/^\d+$/) });
    // Sent by the dispatcher's idempotent (acks=all) producer.
    expect(dead.filter((d) => d.producerId === '-1')).toEqual([]);
    const row = await eventually(async () => (await db.pool.query('select domain, body from webhook_deliveries where event_id = $1', [good.eventId])).rows[0], 15_000);
    expect(JSON.parse(row.body)).toEqual({ eventId: good.eventId, eventName: EVT, occurredAt: good.occurredAt, domain, data: good.data });
    expect(admitted).toContain(good.eventId);
  });

  it('makes deliveries only for subscribed domains listing the event, once per event id', async () => {
    const subscribed = uniqueDomain('sub');
    const unsubscribed = uniqueDomain('none');
    await subscriptions.put(subscribed, { eventNames: [EVT], url: 'http://127.0.0.1:1/', sealedSecret: 'sealed', secretId: 'id' }, 0);
    const events = [event(subscribed), event(subscribed), event(unsubscribed)];
    await send(events.map((e) => ({ key: e.domain, value: JSON.stringify(e) })));
    // the same event again (a producer retry): no second delivery
    await send([{ key: subscribed, value: JSON.stringify(events[0]) }]);
    const marker = event(subscribed);
    await send([{ key: subscribed, value: JSON.stringify(marker) }]);
    // A batch's deliveries may be stored by statements running side by side (attempt-first, held,
    // store-first), so the marker's row can land before an earlier event's: wait for all three.
    const expected = [events[0].eventId, events[1].eventId, marker.eventId];
    await eventually(async () => (await db.pool.query('select 1 from webhook_deliveries where event_id = any($1::uuid[])', [expected])).rowCount === 3, 15_000);
    const { rows } = await db.pool.query('select domain, event_id from webhook_deliveries where domain = any($1::text[])', [[subscribed, unsubscribed]]);
    expect(rows.map((r) => r.event_id).sort()).toEqual([...expected].sort());
  });

  it('reads every event type of its registry in one group: each event delivered under its own name, only to domains listing it', async () => {
    const both = uniqueDomain('both');
    const riskOnly = uniqueDomain('risk');
    await subscriptions.put(both, { eventNames: [EVT, second.name], url: 'http://127.0.0.1:1/', sealedSecret: 'sealed', secretId: 'id' }, 0);
    await subscriptions.put(riskOnly, { eventNames: [EVT], url: 'http://127.0.0.1:1/', sealedSecret: 'sealed', secretId: 'id' }, 0);
    const risk = event(both);
    const inspections = [event(both, { due: '2026-12-01' }), event(riskOnly, { due: '2026-12-02' })];
    await producer.send({ topic: second.input.topic, messages: [...inspections.map((e) => ({ key: e.domain, value: JSON.stringify(e) })), { key: both, value: '{' }] });
    await send([{ key: both, value: JSON.stringify(risk) }]);
    // Once both topics' offsets are committed past these messages, every delivery of them is stored.
    const admin = kafka.admin();
    await admin.connect();
    try {
      // The malformed message of the second topic went to that topic's own DLQ.
      await eventually(async () => (await admin.fetchTopicOffsets(second.deadLetters.topic)).some((p) => Number(p.high) > 0), 15_000);
      const committed = await eventually(async () => {
        const offsets = await admin.fetchOffsets({ groupId: `consumer-spec-${suffix}`, topics: [topic, second.input.topic] });
        const sum = (t: string) => offsets.find((o) => o.topic === t)!.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
        const riskStored = (await db.pool.query('select 1 from webhook_deliveries where event_id = $1', [risk.eventId])).rowCount === 1;
        return sum(second.input.topic) === 3 && riskStored ? offsets : undefined;
      }, 15_000);
      expect(committed.map((o) => o.topic).sort()).toEqual([topic, second.input.topic].sort());
    } finally {
      await admin.disconnect();
    }
    const { rows } = await db.pool.query('select event_id, event_name, body from webhook_deliveries where domain = any($1::text[]) order by event_name', [[both, riskOnly]]);
    expect(rows.map((r) => [r.event_id, r.event_name])).toEqual([[risk.eventId, EVT], [inspections[0].eventId, second.name]]);
    expect(JSON.parse(rows[1].body)).toEqual({ eventId: inspections[0].eventId, eventName: second.name, occurredAt: inspections[0].occurredAt, domain: both, data: { due: '2026-12-01' } });
  });

  it('records events of a disabled subscription as skipped deliveries (no attempts), never drops them', async () => {
    const domain = uniqueDomain('off');
    await subscriptions.put(domain, { eventNames: [EVT], url: 'http://127.0.0.1:1/', sealedSecret: 'sealed', secretId: 'id' }, 0);
    await subscriptions.disable(domain, 'gone');
    const events = [event(domain), event(domain)];
    await send(events.map((e) => ({ key: domain, value: JSON.stringify(e) })));
    const rows = await eventually(async () => {
      const { rows } = await db.pool.query('select event_id, status, attempts from webhook_deliveries where domain = $1 order by seq', [domain]);
      return rows.length === 2 ? rows : undefined;
    }, 15_000);
    expect(rows).toEqual(events.map((e) => ({ event_id: e.eventId, status: 'skipped', attempts: 0 })));
    expect(admitted).not.toContain(events[0].eventId);
  });
});

describe('WebhookEventConsumer: how first attempts are made, and when offsets are committed (real Kafka)', () => {
  const connection = infraKafka();
  const kafka = new Kafka({ ...connection, clientId: 'consumer-spec-first', logLevel: logLevel.NOTHING });
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let subscriptions: SubscriptionStore;
  const domain = uniqueDomain('first');

  beforeAll(async () => {
    db = await isolatedDatabase('consumer-first');
    subscriptions = new SubscriptionStore(db.pool);
    await subscriptions.put(domain, { eventNames: [EVT], url: 'http://127.0.0.1:1/', sealedSecret: 'sealed', secretId: 'id' }, 0);
  });
  afterAll(() => db.drop());

  const event = () => ({ eventId: randomUUID(), domain, occurredAt: new Date().toISOString(), data: { score: 1 } });

  async function withTopic(run: (topic: string, send: (events: ReturnType<typeof event>[]) => Promise<unknown>) => Promise<void>) {
    const topic = `test.first-attempt.${randomUUID().slice(0, 8)}`;
    await ensureTopics(connection, [{ topic, numPartitions: 1 }, { topic: `${topic}.dlq`, numPartitions: 1 }]);
    const producer = kafka.producer();
    await producer.connect();
    try {
      await run(topic, (events) => producer.send({ topic, messages: events.map((e) => ({ key: domain, value: JSON.stringify(e) })) }));
    } finally {
      await producer.disconnect();
    }
  }

  function consumerWith(topic: string, groupId: string, intake: DeliveryIntake) {
    return new WebhookEventConsumer(new NewDeliveries(new BatchPools(db.pool)), subscriptions, intake, new DeliveryMetrics(), { kafka: connection, clientId: 'consumer-spec-first', groupId, eventTypes: [eventTypeOnTopic(topic)] });
  }

  it('holds the events that were in the partition when it was assigned (its previous owner may be attempting them) and attempts later ones first', () =>
    withTopic(async (topic, send) => {
      const before = [event(), event(), event()];
      await send(before);
      const calls: { how: string; eventIds: string[]; holdMs?: number }[] = [];
      const note = (how: string, fresh: NewDelivery[], holdMs?: number) => {
        if (fresh.length > 0) calls.push({ how, eventIds: fresh.map((d) => d.eventId), ...(holdMs !== undefined ? { holdMs } : {}) });
        return fresh.length;
      };
      const consumer = consumerWith(topic, `first-${topic}`, {
        admit: async (fresh) => note('store-first', fresh),
        admitAttemptingFirst: async (fresh) => ({ stored: Promise.resolve(note('attempt-first', fresh)) }),
        hold: async (fresh, holdMs) => note('hold', fresh, holdMs),
      });
      await consumer.start();
      try {
        await eventually(async () => calls.length > 0, 15_000);
        const after = [event(), event()];
        for (const e of after) await send([e]);
        await eventually(async () => calls.flatMap((c) => c.eventIds).length === 5, 15_000);
        expect(calls.filter((c) => c.how === 'hold')).toEqual([{ how: 'hold', eventIds: before.map((e) => e.eventId), holdMs: INHERITED_HOLD_MS }]);
        expect(calls.filter((c) => c.how !== 'hold').flatMap((c) => c.eventIds.map((id) => `${c.how} ${id}`))).toEqual(after.map((e) => `attempt-first ${e.eventId}`));
      } finally {
        await consumer.stop();
      }
    }));

  it('commits an offset only once every delivery before it is stored', () =>
    withTopic(async (topic, send) => {
      const groupId = `commit-${topic}`;
      const stored: Record<string, () => void> = {};
      const consumer = consumerWith(topic, groupId, {
        admit: async (fresh) => fresh.length,
        admitAttemptingFirst: async (fresh) => ({
          stored: fresh.length === 0 ? Promise.resolve(0) : new Promise<number>((resolve) => (stored[fresh[0].eventId] = () => resolve(fresh.length))),
        }),
        hold: async (fresh) => fresh.length,
      });
      const admin = kafka.admin();
      await admin.connect();
      const committed = async () => (await admin.fetchOffsets({ groupId, topics: [topic] }))[0].partitions[0].offset;
      await consumer.start();
      try {
        await sleep(1500); // joined, the partition's mark taken while it is empty
        const [a, b] = [event(), event()];
        await send([a]);
        await eventually(async () => stored[a.eventId], 15_000);
        await send([b]);
        await eventually(async () => stored[b.eventId], 15_000);
        stored[b.eventId](); // the later one stored first: nothing is committable yet
        await sleep(400);
        expect(await committed()).toBe('-1');
        stored[a.eventId]();
        await eventually(async () => (await committed()) === '2', 5_000);
      } finally {
        await consumer.stop();
        await admin.disconnect();
      }
    }));
});
