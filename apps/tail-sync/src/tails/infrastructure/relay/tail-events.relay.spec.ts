/**
 * TailEventsRelay against a real PostgreSQL (`DATABASE_URL`) and a real Kafka broker
 * (`KAFKA_BROKERS`): events written by the real write side, published by the relay to a topic of
 * this run, consumed back with a real kafkajs consumer.
 */
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { CLOUDEVENTS_HEADERS, TAIL_EVENT_SCHEMA_ID, TAIL_EVENTS_SOURCE, type TailEventMessage } from '@tailsync/contracts';
import { EsdbEventStore, type StoredEvent } from '@tailsync/event-store';
import { InMemoryEsdbServer } from '@tailsync/event-store/testing';
import { kafkaConnection, metricsRegistry, type Sender } from '@tailsync/service-kit';
import type { CallerContext } from '../../application/caller-context';
import { createTestStores, tailIdOf, type TestStores } from '../read-model/read-model.test-support';
import { relayProducer } from './relay-producer';
import { TailEventsRelay, type TailEventsRelayOptions } from './tail-events.relay';

const DATABASE_URL = process.env.DATABASE_URL;
const KAFKA_BROKERS = process.env.KAFKA_BROKERS;
const describeInfra = DATABASE_URL && KAFKA_BROKERS ? describe : describe.skip;
if (!DATABASE_URL || !KAFKA_BROKERS) console.warn('tail-events.relay.spec: DATABASE_URL or KAFKA_BROKERS not set; skipped');

interface Received {
  key: string;
  partition: number;
  offset: number;
  value: TailEventMessage;
  headers: Record<string, string>;
  /** Of the batch the broker stored it in: -1 unless an idempotent producer wrote it. */
  producerId: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeInfra('TailEventsRelay (PostgreSQL + Kafka)', () => {
  let s: TestStores;
  let kafka: Kafka;
  let producer: Sender;
  let consumer: Consumer;
  let topic: string;
  const received: Received[] = [];
  const relays: TailEventsRelay[] = [];

  const newRelay = (opts: TailEventsRelayOptions = {}, p: Sender = producer) => {
    const r = new TailEventsRelay(s.pool, s.store, p, { topic, schema: s.schema, logger: { warn: () => undefined, error: () => undefined }, ...opts });
    relays.push(r);
    return r;
  };

  /** Messages of a domain, once at least `count` have arrived. */
  const messagesOf = async (domain: string, count: number, timeoutMs = 20_000): Promise<Received[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mine = received.filter((m) => m.value.domain === domain);
      if (mine.length >= count) return mine;
      if (Date.now() > deadline) throw new Error(`only ${mine.length} of ${count} messages of ${domain} arrived`);
      await sleep(20);
    }
  };

  /** Every tail event of a domain in the store, per stream. */
  const storedOf = async (tailIds: number[]): Promise<Map<string, StoredEvent[]>> => s.store.readStreams(tailIds.map((id) => `tail-${id}`));

  beforeAll(async () => {
    s = await createTestStores('rly', DATABASE_URL as string);
    topic = `tailsync.tail-events.test-${s.run}`;
    kafka = new Kafka({ ...kafkaConnection(process.env), clientId: `relay-spec-${s.run}`, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 3, replicationFactor: 1 }] });
    await admin.disconnect();
    producer = relayProducer(kafkaConnection(process.env), `relay-spec-${s.run}`);
    await producer.connect();
    consumer = kafka.consumer({ groupId: `relay-spec-${s.run}`, maxWaitTimeInMs: 50 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        received.push({
          key: message.key!.toString(),
          partition,
          offset: Number(message.offset),
          value: JSON.parse(message.value!.toString()) as TailEventMessage,
          headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
          producerId: (message as typeof message & { batchContext: { producerId: string } }).batchContext.producerId,
        });
      },
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(relays.map((r) => r.stop()));
    await consumer?.disconnect().catch(() => undefined);
    await producer?.disconnect().catch(() => undefined);
    if (kafka) {
      const admin = kafka.admin();
      await admin.connect().then(() => admin.deleteTopics({ topics: [topic] })).catch(() => undefined);
      await admin.disconnect().catch(() => undefined);
    }
    await s?.cleanup();
  }, 60_000);

  const ctx = (domain: string, source: string): CallerContext => ({ domain, source });

  /** The checkpoint after everything written so far: drains what earlier tests left. */
  const drain = async (relay: TailEventsRelay) => {
    for (let i = 0; i < 50; i++) if ((await relay.runOnce()).published === 0) return;
  };

  it('publishes every tail event, in order per tail, keyed <domain>:<tailId>, with the Mapped IDs after it', async () => {
    const relay = newRelay();
    const domain = s.unique('d');
    const a = ctx(domain, 'client-a');
    const b = ctx(domain, 'client-b');
    const created = await s.writer.createOrMapMany(
      a,
      Array.from({ length: 20 }, (_, i) => ({ mappedId: `A-${i}`, tailNumber: `N${i}`, countryCode: 'FR' })),
    );
    const ids = created.results.map(tailIdOf);
    await s.writer.createOrMapMany(b, [0, 1, 2, 3, 4].map((i) => ({ mappedId: `B-${i}`, tailNumber: `n${i}` })));
    for (const i of [0, 1, 2]) await s.writer.deactivate(a, `A-${i}`);
    await s.writer.reactivate(b, 'B-1');
    await s.writer.changeTailNumber(a, 'A-0', 'RENUMBERED-0');
    await s.writer.changeTailNumber(b, 'B-4', 'RENUMBERED-4');
    const total = 20 + 5 + 3 + 1 + 2;

    const run = await relay.runOnce();
    expect(run.leader).toBe(true);
    expect(run.published).toBe(total);
    expect(run.checkpoint).not.toBeNull();
    expect(await relay.storedCheckpoint()).toEqual(run.checkpoint);

    const messages = await messagesOf(domain, total);
    await sleep(300); // nothing more should come
    // Written by the relay's idempotent (acks=all) producer: the broker keeps its producer id.
    expect(messages.filter((m) => m.producerId === '-1')).toEqual([]);
    expect(received.filter((m) => m.value.domain === domain)).toHaveLength(total);

    const stored = await storedOf(ids);
    for (const tailId of ids) {
      const events = stored.get(`tail-${tailId}`)!;
      const mine = messages.filter((m) => m.value.tailId === tailId);
      // One key per tail → one partition → consumed in the stored order.
      expect(new Set(mine.map((m) => m.partition)).size).toBe(1);
      mine.sort((x, y) => x.offset - y.offset);
      expect(mine.map((m) => m.key)).toEqual(events.map(() => `${domain}:${tailId}`));
      expect(mine.map((m) => m.value.eventId)).toEqual(events.map((e) => e.eventId));
      let mapped: string[] = [];
      events.forEach((e, i) => {
        if (e.type === 'TailCreated' || e.type === 'MappingAdded') mapped = [...mapped, String(e.data.mappedId)];
        expect(mine[i].value).toEqual({
          eventId: e.eventId,
          type: e.type,
          domain,
          tailId,
          mappedIds: mapped,
          occurredAt: e.data.occurredAt,
          data: expect.any(Object),
          position: e.position,
        });
        // The value's fields stay in the order consumers had before the CloudEvents headers.
        expect(Object.keys(mine[i].value)).toEqual(['eventId', 'type', 'domain', 'tailId', 'mappedIds', 'occurredAt', 'data', 'position']);
        expect(mine[i].headers).toEqual({
          'event-type': e.type,
          'event-id': e.eventId,
          [CLOUDEVENTS_HEADERS.specversion]: '1.0',
          [CLOUDEVENTS_HEADERS.id]: e.eventId,
          [CLOUDEVENTS_HEADERS.source]: TAIL_EVENTS_SOURCE,
          [CLOUDEVENTS_HEADERS.type]: `tailsync.tail.${e.type}`,
          [CLOUDEVENTS_HEADERS.time]: e.data.occurredAt,
          [CLOUDEVENTS_HEADERS.dataschema]: TAIL_EVENT_SCHEMA_ID,
          [CLOUDEVENTS_HEADERS.contentType]: 'application/json',
        });
      });
    }
    const byType = (type: string, tailId: number) => messages.find((m) => m.value.type === type && m.value.tailId === tailId)!.value;
    expect(byType('TailCreated', ids[0])).toMatchObject({ mappedIds: ['A-0'], data: { source: 'client-a', mappedId: 'A-0', tailNumber: 'N0', countryCode: 'FR', actor: 'client-a' } });
    expect(byType('MappingAdded', ids[0])).toMatchObject({ mappedIds: ['A-0', 'B-0'], data: { source: 'client-b', mappedId: 'B-0', actor: 'client-b' } });
    expect(byType('TailRenumbered', ids[0])).toMatchObject({ mappedIds: ['A-0', 'B-0'], data: { fromTailNumber: 'N0', toTailNumber: 'RENUMBERED-0' } });
    expect(byType('TailReactivated', ids[1]).data).toEqual({ actor: 'client-b' });
    expect(byType('TailCreated', ids[10]).mappedIds).toEqual(['A-10']);
    // Envelope fields are not repeated in data.
    expect(Object.keys(byType('TailDeactivated', ids[2]).data)).toEqual(['actor']);

    expect(await metricsRegistry.getSingleMetricAsString('tailsync_tail_events_published_total')).toMatch(/tailsync_tail_events_published_total \d+/);
    expect((await relay.runOnce()).published).toBe(0);
    await relay.stop();
  });

  it('stores the checkpoint an EventStoreDB read scanned to, past events of other streams (in-memory server)', async () => {
    const server = await InMemoryEsdbServer.start();
    const esdb = new EsdbEventStore(server.connectionString);
    const relay = new TailEventsRelay(s.pool, esdb, producer, { topic, schema: s.schema, name: `esdb-${s.run}`, logger: { warn: () => undefined, error: () => undefined } });
    try {
      server.seed('other-service', 300); // another service shares the store; no tail event at all
      const head = await esdb.headCheckpoint();
      expect((await relay.runOnce()).published).toBe(0);
      expect(await relay.storedCheckpoint()).toEqual(head);
    } finally {
      await relay.stop();
      await esdb.close();
      await server.stop();
    }
  });

  it('resumes from its checkpoint after being stopped: nothing lost, nothing repeated', async () => {
    const first = newRelay();
    await drain(first);
    const domain = s.unique('d');
    const a = ctx(domain, 'client-a');
    await s.writer.createOrMapMany(a, [{ mappedId: 'R-1', tailNumber: 'R1' }, { mappedId: 'R-2', tailNumber: 'R2' }]);
    expect((await first.runOnce()).published).toBe(2);
    await first.stop();

    await s.writer.deactivate(a, 'R-1');
    await s.writer.createOrMapMany(ctx(domain, 'client-b'), [{ mappedId: 'B-2', tailNumber: 'r2' }]);
    await s.writer.createOrMapMany(a, [{ mappedId: 'R-3', tailNumber: 'R3' }]);
    const second = newRelay();
    const run = await second.runOnce();
    expect(run).toMatchObject({ leader: true, published: 3 });
    const messages = await messagesOf(domain, 5);
    await sleep(300);
    expect(received.filter((m) => m.value.domain === domain).map((m) => m.value.type).sort()).toEqual(
      ['TailCreated', 'TailCreated', 'TailCreated', 'TailDeactivated', 'MappingAdded'].sort(),
    );
    expect(new Set(messages.map((m) => m.value.eventId)).size).toBe(5);
    // Events of tails created in an earlier batch carry the Mapped IDs of their whole history.
    expect(messages.find((m) => m.value.type === 'MappingAdded')?.value.mappedIds).toEqual(['R-2', 'B-2']);
    expect(messages.find((m) => m.value.type === 'TailDeactivated')?.value.mappedIds).toEqual(['R-1']);
    await second.stop();
  });

  it('republishes only the batch whose checkpoint was not stored when it fails after sending', async () => {
    const healthy = newRelay({ batchSize: 4 });
    await drain(healthy);
    await healthy.stop();
    const domain = s.unique('d');
    const a = ctx(domain, 'client-a');
    await s.writer.createOrMapMany(a, Array.from({ length: 10 }, (_, i) => ({ mappedId: `F-${i}`, tailNumber: `F${i}` })));

    // Batches of 4: the first is sent and checkpointed, the second is sent, then "the process dies".
    let sends = 0;
    const flaky = {
      send: async (record: Parameters<Sender['send']>[0]) => {
        const result = await producer.send(record);
        if (++sends === 2) throw new Error('crash after send, before the checkpoint');
        return result;
      },
    } as unknown as Sender;
    const crashing = newRelay({ batchSize: 4 }, flaky);
    await expect(crashing.runOnce()).rejects.toThrow(/crash after send/);
    expect(crashing.isLeader).toBe(false); // gave the lock up
    await crashing.stop();

    const resumed = newRelay({ batchSize: 4 });
    await drain(resumed);
    const messages = await messagesOf(domain, 14);
    await sleep(300);
    const counts = new Map<string, number>();
    for (const m of received.filter((r) => r.value.domain === domain)) counts.set(m.value.mappedIds[0], (counts.get(m.value.mappedIds[0]) ?? 0) + 1);
    // F-0..F-3: once; F-4..F-7 (the un-checkpointed batch): twice; F-8, F-9: once.
    expect(Object.fromEntries(counts)).toEqual(
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`F-${i}`, i >= 4 && i < 8 ? 2 : 1])),
    );
    expect(messages.length).toBeGreaterThanOrEqual(14);
    await resumed.stop();
  });

  it('only one copy relays at a time; another takes over when the holder stops or its session dies', async () => {
    const one = newRelay();
    const two = newRelay();
    expect((await one.runOnce()).leader).toBe(true);
    expect(await two.runOnce()).toEqual({ leader: false, published: 0, checkpoint: null });
    await one.stop();
    expect((await two.runOnce()).leader).toBe(true);
    expect((await one.runOnce()).leader).toBe(false);

    // The holder's database session is killed (as when its process dies): the lock is freed.
    await s.pool.query(
      `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and granted and pid <> pg_backend_pid()
         and ((classid::bigint << 32) | objid::bigint) = (($1::bigint) & x'ffffffffffffffff'::bigint)`,
      [(two as unknown as { session: { lockKey: string } }).session.lockKey],
    );
    const deadline = Date.now() + 5000;
    let leader = false;
    while (!leader && Date.now() < deadline) {
      leader = (await one.runOnce()).leader;
      if (!leader) await sleep(50);
    }
    expect(leader).toBe(true);
    // The dead holder notices (its next call may fail once on the killed session), then stands by.
    const after = await two.runOnce().catch(() => two.runOnce());
    expect(after).toMatchObject({ leader: false });
    expect(two.isLeader).toBe(false);
    await one.stop();
    await two.stop();
  });

  it('the loop publishes soon after a nudge and keeps up with bulk writes', async () => {
    const relay = newRelay({ pollIntervalMs: 10_000 });
    await drain(relay);
    relay.start();
    await sleep(100);
    const domain = s.unique('d');
    const a = ctx(domain, 'client-a');
    await s.writer.createOrMapMany(a, [{ mappedId: 'L-1', tailNumber: 'L1' }]);
    const nudged = Date.now();
    relay.nudge();
    await messagesOf(domain, 1, 3000);
    const latency = Date.now() - nudged;
    expect(latency).toBeLessThan(3000);

    // Throughput: 5 bulks of 1,000 tails.
    await relay.stop();
    const bulk = s.unique('d');
    for (let k = 0; k < 5; k++) {
      await s.writer.createOrMapMany(ctx(bulk, 'client-a'), Array.from({ length: 1000 }, (_, i) => ({ mappedId: `T-${k}-${i}`, tailNumber: `T${k}-${i}` })));
    }
    const throughputRelay = newRelay();
    const started = Date.now();
    let published = 0;
    for (;;) {
      const r = await throughputRelay.runOnce();
      published += r.published;
      if (r.published === 0) break;
    }
    const ms = Date.now() - started;
    expect(published).toBe(5000);
    await messagesOf(bulk, 5000, 30_000);
    console.log(`[relay] nudge → consumed: ${latency} ms; published 5,000 events in ${ms} ms (${Math.round((5000 / ms) * 1000)} events/s, acks=-1)`);
    await throughputRelay.stop();
  }, 90_000);
});
