/**
 * KAFKA_LOCAL_BROKERS=3 as the local stack starts it: three real KRaft nodes (broker and
 * controller each) with SASL/SCRAM and the contract's ACLs, tailsync's topics with 3 replicas and
 * min.insync.replicas 2, and writes that go on when one broker is SIGKILLed. Its own cluster, on
 * ports of its own, so the suite's broker is not disturbed.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KAFKA_TOPICS, TOPICS } from '@tailsync/contracts';
import { ensureTopics, FAILOVER_RETRY, idempotentProducer, kafkaConnection, type KafkaConnection } from '@tailsync/service-kit';
import { type Admin, ConfigResourceTypes, Kafka, type KafkaMessage, logLevel } from 'kafkajs';
import { type LocalKafka, startLocalKafka } from '../stack/local-kafka';
import { principalSettings, readKafkaClients } from './kafka-clients-file';

/** Away from the suite's broker (19092-19093) and the apps' ports. */
const PORT = 19192;
const dataDir = join(process.env.TAILSYNC_TEST_DATA ?? tmpdir(), `kafka-cluster-${randomUUID().slice(0, 8)}`);

let cluster: LocalKafka;
/** The address of the broker the test killed: clients made after it bootstrap from the others only. */
let lostBroker: string | undefined;
const connectionOf = (principal: 'admin' | 'tail-sync' | 'reader'): KafkaConnection => {
  const connection = kafkaConnection(principalSettings(readKafkaClients(cluster.env.TAILSYNC_KAFKA_CLIENTS_FILE), principal));
  return { ...connection, brokers: connection.brokers.filter((broker) => broker !== lostBroker) };
};
/** Each client as the apps make those that carry events: with their retries through a leader change. */
const client = (principal: 'admin' | 'tail-sync' | 'reader') =>
  new Kafka({ ...connectionOf(principal), clientId: `cluster-spec-${principal}`, logLevel: logLevel.NOTHING, retry: FAILOVER_RETRY });

async function withAdmin<T>(run: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = client('admin').admin();
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.disconnect();
  }
}

/**
 * Runs `ask` again while the broker it reached answers that it does not know a topic yet: a new
 * topic's metadata reaches the brokers one by one, and kafkajs's admin gives up on that answer at
 * once (describeConfigs goes to whichever broker the metadata names controller).
 */
async function whileTopicUnknown<T>(ask: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ask();
    } catch (error) {
      const unknown = (e: unknown): boolean => (e as { type?: string }).type === 'UNKNOWN_TOPIC_OR_PARTITION' || (!!(e as { cause?: unknown }).cause && unknown((e as { cause?: unknown }).cause));
      if (!unknown(error) || attempt === 20) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Each topic's `min.insync.replicas` as the brokers report it. */
const minInsyncReplicas = (topics: string[]) =>
  withAdmin(async (admin) => {
    const { resources } = await whileTopicUnknown(() =>
      admin.describeConfigs({
        includeSynonyms: false,
        resources: topics.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ['min.insync.replicas'] })),
      }),
    );
    return Object.fromEntries(resources.map((r) => [r.resourceName, r.configEntries[0].configValue]));
  });

/** Per topic, the replica and in-sync counts of its partitions. */
const replicaCounts = (topics: string[]) =>
  withAdmin(async (admin) => {
    const { topics: metadata } = await whileTopicUnknown(() => admin.fetchTopicMetadata({ topics }));
    return Object.fromEntries(metadata.map((t) => [t.name, t.partitions.map((p) => ({ replicas: p.replicas.length, isr: p.isr.length }))]));
  });

const messages = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ key: `tail-${from + i}`, value: JSON.stringify({ n: from + i }) }));

/** Reads `topic` from the beginning, as `reader`, until `count` messages came. */
async function readAll(topic: string, count: number): Promise<KafkaMessage[]> {
  const consumer = client('reader').consumer({ groupId: `reader-cluster-spec-${randomUUID()}`, maxWaitTimeInMs: 100 });
  const read: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${read.length} of ${count} messages in 60 s`)), 60_000);
      void consumer
        .run({
          eachMessage: async ({ message }) => {
            read.push(message);
            if (read.length >= count) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return read;
}

describe('three local KRaft brokers (KAFKA_LOCAL_BROKERS=3)', () => {
  beforeAll(async () => {
    const started = Date.now();
    cluster = await startLocalKafka({ dataDir, port: PORT, brokers: 3, security: 'sasl', replication: {}, log: () => undefined });
    console.log(`[kafka-cluster] three brokers formatted, started, their users, ACLs and topics made in ${Date.now() - started} ms`);
  }, 180_000);

  afterAll(async () => {
    await cluster?.running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('lists the three brokers in the stack environment and the clients file', () => {
    const three = `127.0.0.1:${PORT},127.0.0.1:${PORT + 2},127.0.0.1:${PORT + 4}`;
    expect(cluster.env.KAFKA_BROKERS).toBe(three);
    expect(readKafkaClients(cluster.env.TAILSYNC_KAFKA_CLIENTS_FILE).brokers).toBe(three);
    expect(cluster.running.nodes.map((n) => n.nodeId)).toEqual([1, 2, 3]);
  });

  it("makes tailsync's topics with 3 replicas, all in sync, and min.insync.replicas 2; the apps' own topic creation too", async () => {
    const topics = KAFKA_TOPICS.map((t) => t.topic);
    const counts = await replicaCounts(topics);
    expect(Object.keys(counts).sort()).toEqual([...topics].sort());
    expect(Object.values(counts).flat().every((p) => p.replicas === 3 && p.isr === 3)).toBe(true);
    expect(Object.values(counts).flat()).toHaveLength(KAFKA_TOPICS.reduce((n, t) => n + t.numPartitions, 0));
    expect(await minInsyncReplicas(topics)).toEqual(Object.fromEntries(topics.map((t) => [t, '2'])));

    const own = `tailsync.cluster-spec-${randomUUID().slice(0, 8)}`;
    await ensureTopics(connectionOf('admin'), [{ topic: own, numPartitions: 2 }]);
    expect(await replicaCounts([own])).toEqual({ [own]: [{ replicas: 3, isr: 3 }, { replicas: 3, isr: 3 }] });
    expect(await minInsyncReplicas([own])).toEqual({ [own]: '2' });
  });

  it('takes acks=all writes while one broker is SIGKILLed, and a consumer reads every one, each written by an idempotent producer', async () => {
    const producer = idempotentProducer(client('tail-sync'));
    await producer.connect();
    try {
      await producer.send({ topic: TOPICS.tailEvents, acks: -1, messages: messages(0, 300) });
      // kafkajs refuses any other acks for an idempotent producer.
      await expect(producer.send({ topic: TOPICS.tailEvents, acks: 1, messages: messages(300, 1) })).rejects.toThrow('invalidates the idempotent producer');

      // A first consumer group while all three run: it makes __consumer_offsets, which a cluster
      // with offsets.topic.replication.factor=3 cannot make with one broker down (as in production,
      // where it has existed since the first consumer).
      expect(await readAll(TOPICS.tailEvents, 300)).toHaveLength(300);

      const leader = await withAdmin(async (admin) => (await admin.fetchTopicMetadata({ topics: [TOPICS.tailEvents] })).topics[0].partitions[0].leader);
      await cluster.running.nodes.find((n) => n.nodeId === leader)!.kill();
      lostBroker = `127.0.0.1:${PORT + 2 * (leader - 1)}`;
      const started = Date.now();
      await producer.send({ topic: TOPICS.tailEvents, acks: -1, messages: messages(300, 300) });
      console.log(`[kafka-cluster] broker ${leader} SIGKILLed: 300 acks=all messages written in ${Date.now() - started} ms by the other two`);
      // The controller fenced the lost broker (its 9 s session): out of every ISR, every partition led by a live one.
      expect((await replicaCounts([TOPICS.tailEvents]))[TOPICS.tailEvents]).toEqual(Array.from({ length: 6 }, () => ({ replicas: 3, isr: 2 })));
    } finally {
      await producer.disconnect();
    }
    const read = await readAll(TOPICS.tailEvents, 600);
    expect(new Set(read.map((m) => m.key!.toString()))).toEqual(new Set(messages(0, 600).map((m) => m.key)));
    expect(read).toHaveLength(600);
    // The broker stored every batch with the producer's id: written by an idempotent producer.
    expect(read.filter((m) => (m as KafkaMessage & { batchContext: { producerId: string } }).batchContext.producerId === '-1')).toEqual([]);
  }, 150_000);
});
