/**
 * The RPC transport against the real Kafka broker the test command starts (`KAFKA_BROKERS`).
 */
import { testKafka } from './test-kafka.test-support';
import { randomBytes } from 'node:crypto';
import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AssignerProtocol, Kafka, logLevel, type Consumer } from 'kafkajs';
import { firstValueFrom } from 'rxjs';
import { batchingProducer } from './batching-producer';
import { ensureTopics } from './ensure-topics';
import { BatchingClientKafka, ConcurrentServerKafka } from './kafka-rpc';
import { kafkaTransport } from './kafka-transport';

const connection = testKafka('kafka-rpc.spec.ts');

const run = randomBytes(4).toString('hex');
const PATTERN = `test.kafka-rpc.${run}.gather`;
const GATHER = 12;

/** Answers once GATHER requests are being handled at the same time (or gives up after 4 s). */
const gate = { inFlight: 0, most: 0, waiters: [] as (() => void)[] };

@Controller()
class GatherController {
  @MessagePattern(PATTERN)
  async gather(@Payload() { n }: { n: number }): Promise<{ n: number; together: number }> {
    gate.inFlight++;
    gate.most = Math.max(gate.most, gate.inFlight);
    if (gate.inFlight >= GATHER) gate.waiters.splice(0).forEach((wake) => wake());
    else await new Promise<void>((resolve) => gate.waiters.push(resolve) && setTimeout(resolve, 4_000));
    const together = gate.most;
    gate.inFlight--;
    return { n, together };
  }
}

const SLOW_PATTERN = `test.kafka-rpc.${run}.slow`;
/** Holds a request marked `slow` until the test releases it (or 8 s pass). */
const slow = { release: null as (() => void) | null };

@Controller()
class SlowController {
  @MessagePattern(SLOW_PATTERN)
  async answer(@Payload() { n, slow: isSlow }: { n: number; slow?: boolean }): Promise<{ n: number }> {
    if (isSlow) await new Promise<void>((resolve) => (slow.release = resolve) && setTimeout(resolve, 8_000));
    return { n };
  }
}

@Module({ controllers: [GatherController, SlowController] })
class GatherModule {}

describe('Kafka RPC transport (real broker)', () => {
  let server: INestMicroservice;
  let strategy: ConcurrentServerKafka;
  let client: BatchingClientKafka;
  const transport = (clientId: string, groupId: string) => kafkaTransport({ connection, clientId, groupId }).options ?? {};

  beforeAll(async () => {
    // One request partition: Nest's own server would handle these requests strictly one after the
    // other. Three reply partitions, of which the client needs one.
    await ensureTopics(connection, [
      { topic: PATTERN, numPartitions: 1 },
      { topic: `${PATTERN}.reply`, numPartitions: 3 },
      { topic: SLOW_PATTERN, numPartitions: 1 },
      { topic: `${SLOW_PATTERN}.reply`, numPartitions: 1 },
    ]);
    strategy = new ConcurrentServerKafka(transport(`rpc-server-${run}`, `rpc-server-${run}`));
    server = await NestFactory.createMicroservice(GatherModule, {
      strategy,
      logger: false,
    });
    await server.listen();
    client = new BatchingClientKafka(transport(`rpc-client-${run}`, `rpc-client-${run}`));
    client.subscribeToResponseOf(PATTERN);
    client.subscribeToResponseOf(SLOW_PATTERN);
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it("handles a partition's requests concurrently and answers each its own reply", async () => {
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: GATHER }, (_, n) => firstValueFrom(client.send<{ n: number; together: number }>(PATTERN, { n }))),
    );
    expect(replies.map((r) => r.n)).toEqual(Array.from({ length: GATHER }, (_, n) => n));
    expect(Math.max(...replies.map((r) => r.together))).toBe(GATHER);
    expect(Date.now() - started).toBeLessThan(4_000); // nobody waited for the gate's time-out
  }, 30_000);

  it('answers requests fetched after a slow one without waiting for it, and commits only past answered requests', async () => {
    const admin = new Kafka({ ...connection, clientId: `rpc-admin-${run}`, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const committed = async () => {
      const [topic] = await admin.fetchOffsets({ groupId: `rpc-server-${run}`, topics: [SLOW_PATTERN] });
      return Number(topic.partitions[0].offset);
    };
    const end = async () => Number((await admin.fetchTopicOffsets(SLOW_PATTERN))[0].high);
    try {
      const slowReply = firstValueFrom(client.send<{ n: number }>(SLOW_PATTERN, { n: 0, slow: true }));
      const waitFor = async (check: () => Promise<boolean>) => {
        for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
      };
      await waitFor(async () => slow.release !== null);
      const slowOffset = (await end()) - 1;
      // Same partition, fetched while the slow request runs: answered at once.
      const fast = await Promise.all([1, 2, 3].map((n) => firstValueFrom(client.send<{ n: number }>(SLOW_PATTERN, { n }))));
      expect(fast.map((r) => r.n)).toEqual([1, 2, 3]);
      expect(slow.release).not.toBeNull(); // the slow one is still held
      // Nothing past the request still running is committed: a crash now would deliver it again.
      await new Promise((r) => setTimeout(r, 300));
      expect(await committed()).toBeLessThanOrEqual(slowOffset);
      slow.release?.();
      expect(await slowReply).toEqual({ n: 0 });
      await waitFor(async () => (await committed()) === (await end()));
      expect(await committed()).toBe(await end());
    } finally {
      slow.release?.();
      await admin.disconnect();
    }
  }, 30_000);

  it('commits request offsets at most every 100 ms, however many requests it answers', async () => {
    const consumer = (strategy as unknown as { consumer: Consumer }).consumer;
    let commits = 0;
    const off = consumer.on(consumer.events.REQUEST, (e) => {
      if (e.payload.apiName === 'OffsetCommit') commits++;
    });
    try {
      const started = Date.now();
      for (let n = 0; n < 40; n++) await firstValueFrom(client.send<{ n: number }>(SLOW_PATTERN, { n }));
      await new Promise((r) => setTimeout(r, 250)); // the last commit
      const elapsed = Date.now() - started;
      expect(commits).toBeGreaterThan(0);
      expect(commits).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
      expect(commits).toBeLessThan(40);
    } finally {
      off();
    }
  }, 30_000);

  it('commits reply offsets every few seconds and when closed, not after every reply', async () => {
    const groupId = `rpc-replies-${run}`;
    const replies = new BatchingClientKafka(transport(`rpc-replies-${run}`, groupId));
    replies.subscribeToResponseOf(SLOW_PATTERN);
    const admin = new Kafka({ ...connection, clientId: `rpc-admin-replies-${run}`, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    let commits = 0;
    try {
      await replies.connect();
      replies.consumer.on(replies.consumer.events.REQUEST, (e) => {
        if (e.payload.apiName === 'OffsetCommit') commits++;
      });
      const [partition] = Object.values(replies.getConsumerAssignments());
      for (let n = 0; n < 20; n++) expect(await firstValueFrom(replies.send<{ n: number }>(SLOW_PATTERN, { n }))).toEqual({ n });
      expect(commits).toBe(0);
      await replies.close();
      const end = (await admin.fetchTopicOffsets(`${SLOW_PATTERN}.reply`)).find((p) => p.partition === partition)?.high;
      const [committed] = await admin.fetchOffsets({ groupId, topics: [`${SLOW_PATTERN}.reply`] });
      expect(committed.partitions.find((p) => p.partition === partition)?.offset).toBe(end);
    } finally {
      await replies.close();
      await admin.disconnect();
    }
  }, 60_000);

  it('consumes one partition of each reply topic: the one its replies are sent to', async () => {
    const group = await client.consumer.describeGroup();
    expect(group.members).toHaveLength(1);
    const assignment = AssignerProtocol.MemberAssignment.decode(group.members[0].memberAssignment)?.assignment;
    expect(assignment).toEqual({ [`${PATTERN}.reply`]: [0], [`${SLOW_PATTERN}.reply`]: [0] });
    expect(client.getConsumerAssignments()).toEqual({ [`${PATTERN}.reply`]: 0, [`${SLOW_PATTERN}.reply`]: 0 });
  });
});

describe('batchingProducer (real broker)', () => {
  it('sends concurrent records in few produce requests, every record delivered once', async () => {
    const topic = `test.batching-producer.${run}`;
    await ensureTopics(connection, [{ topic, numPartitions: 3 }]);
    const kafka = new Kafka({ ...connection, clientId: `batching-${run}`, logLevel: logLevel.NOTHING });
    const producer = batchingProducer(kafka.producer({ allowAutoTopicCreation: false }));
    let produceRequests = 0;
    producer.on(producer.events.REQUEST, (e) => {
      if (e.payload.apiName === 'Produce') produceRequests++;
    });
    await producer.connect();
    const admin = kafka.admin();
    await admin.connect();
    try {
      const sends = Array.from({ length: 60 }, (_, i) => producer.send({ topic, messages: [{ key: `k${i}`, value: `v${i}` }] }));
      const metadata = await Promise.all(sends);
      expect(metadata.every((m) => m.length > 0 && m.every((r) => r.topicName === topic))).toBe(true);
      expect(produceRequests).toBeGreaterThan(0);
      expect(produceRequests).toBeLessThanOrEqual(3);
      const offsets = await admin.fetchTopicOffsets(topic);
      expect(offsets.reduce((sum, p) => sum + Number(p.high), 0)).toBe(60);
    } finally {
      await admin.disconnect();
      await producer.disconnect();
    }
  }, 60_000);
});
