/**
 * KAFKA_LOCAL_BROKERS=3 as the local stack starts it: three real KRaft nodes (broker and
 * controller each) with SASL/SCRAM and the contract's ACLs, tailsync's topics with 3 replicas and
 * min.insync.replicas 2, and writes that go on when one broker is SIGKILLed. Its own cluster, on
 * ports of its own, so the suite's broker is not disturbed.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KAFKA_TOPICS, TOPICS } from '@tailsync/contracts';
import { BROKER_FAILOVER_MS, ensureTopics, FAILOVER_CLIENT, FAILOVER_RETRY, failoverConsumer, idempotentProducer, kafkaConnection, type KafkaConnection, RenewingProducer, REQUEST_TIMEOUT_MS } from '@tailsync/service-kit';
import { type Admin, ConfigResourceTypes, Kafka, type KafkaMessage, type LogEntry, logLevel } from 'kafkajs';
import { type LocalKafka, startLocalKafka } from '../stack/local-kafka';
import { NODE_READY_MS } from './broker';
import { principalSettings, readKafkaClients } from './kafka-clients-file';

/** Away from the suite's brokers (19092-19093 and 19292-19293, docs/testing.md) and the apps' ports. */
const PORT = 19192;
const dataDir = join(process.env.TAILSYNC_TEST_DATA ?? tmpdir(), `kafka-cluster-${randomUUID().slice(0, 8)}`);

let cluster: LocalKafka;
/** Every broker, the lost one too, as the apps' KAFKA_BROKERS lists them. */
const connectionOf = (principal: 'admin' | 'tail-sync' | 'reader'): KafkaConnection =>
  kafkaConnection(principalSettings(readKafkaClients(cluster.env.TAILSYNC_KAFKA_CLIENTS_FILE), principal));
/** kafkajs's lines at the apps' level (WARN and ERROR), counted by line: what an operator sees in a fault. */
const clientLines = new Map<string, number>();
const countLine = () => ({ namespace, level, log }: LogEntry) => {
  const line = `${level === logLevel.ERROR ? 'ERROR' : 'WARN'} [${namespace}] ${log.message}`;
  clientLines.set(line, (clientLines.get(line) ?? 0) + 1);
};
const reportLines = (fault: string) => {
  console.log(`[kafka-cluster] ${fault}: kafkajs logged\n${[...clientLines].map(([line, n]) => `  ${n} × ${line}`).join('\n')}`);
  clientLines.clear();
};

/** Each client as the apps make those that carry events (FAILOVER_CLIENT: their time-outs and retries through a leader change), logging at WARN. */
const client = (principal: 'admin' | 'tail-sync' | 'reader') =>
  new Kafka({ ...connectionOf(principal), clientId: `cluster-spec-${principal}`, logLevel: logLevel.WARN, logCreator: countLine, ...FAILOVER_CLIENT });

/**
 * The test's own look at the cluster (not under test). While a broker hangs, it bootstraps from the
 * others and gives up within seconds: kafkajs's admin asks a random broker of the metadata, which
 * may be the hung one, and would wait for it through every retry.
 */
let hungBroker: string | undefined;

async function withAdmin<T>(run: (admin: Admin) => Promise<T>): Promise<T> {
  const { brokers, ...connection } = connectionOf('admin');
  const observer = hungBroker
    ? new Kafka({ ...connection, brokers: brokers.filter((b) => b !== hungBroker), clientId: 'cluster-spec-observer', logLevel: logLevel.NOTHING, connectionTimeout: 1_000, authenticationTimeout: 1_000, requestTimeout: 2_000, retry: { retries: 0 } })
    : new Kafka({ ...connection, brokers, clientId: 'cluster-spec-observer', logLevel: logLevel.NOTHING, retry: FAILOVER_RETRY });
  const admin = observer.admin();
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

/** The topics' metadata (their partitions' leaders, replicas and in-sync sets) as the brokers report it. */
const topicMetadata = (topics: string[]) => withAdmin(async (admin) => (await whileTopicUnknown(() => admin.fetchTopicMetadata({ topics }))).topics);

/** One topic's partitions, as `topicMetadata` reports them. */
const partitionsOf = async (topic: string) => (await topicMetadata([topic]))[0].partitions;

/** Per topic, the replica and in-sync counts of its partitions. */
const replicaCounts = async (topics: string[]) =>
  Object.fromEntries((await topicMetadata(topics)).map((t) => [t.name, t.partitions.map((p) => ({ replicas: p.replicas.length, isr: p.isr.length }))]));

/**
 * Waits until every partition of `topics` has all three replicas in sync again: a woken broker,
 * fenced while it hung, first catches up on the metadata log and waits to be unfenced, as a
 * restarted one does, so it gets as long as a node may take to serve (loaded CI took over 60 s).
 */
async function allInSync(topics: string[]): Promise<void> {
  const behind = async () =>
    (await topicMetadata(topics)).flatMap((t) =>
      t.partitions.filter((p) => p.isr.length < p.replicas.length).map((p) => ({ partition: `${t.name}/${p.partitionId}`, missing: p.replicas.filter((r) => !p.isr.includes(r)) })),
    );
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 500))) {
    const lagging = await behind();
    if (lagging.length === 0) return console.log(`[kafka-cluster] every replica of ${topics.join(', ')} in sync after ${Date.now() - started} ms`);
    if (Date.now() - started > NODE_READY_MS) {
      const partitions = lagging.map((l) => `${l.partition} without ${l.missing.join(',')}`).join('; ');
      const nodes = [...new Set(lagging.flatMap((l) => l.missing))];
      throw new Error(`not back in sync ${NODE_READY_MS / 1000} s after the fault: ${partitions}\n${nodes.map(brokerWarnings).join('\n')}`);
    }
  }
}

/** The last warnings and fencing lines of node `nodeId`'s own log, for a failure to say what the broker saw. */
function brokerWarnings(nodeId: number): string {
  const file = join(dataDir, `kafka-${nodeId}`, 'kafka.log');
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => / (WARN|ERROR) |fenc/i.test(line)) : [];
  return `node ${nodeId}'s last warnings (${file}):\n${lines.slice(-30).join('\n')}`;
}

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

/** Reads `topic` from the beginning and expects the first `count` of `messages()` there, each at least once. */
async function expectEveryMessage(topic: string, count: number): Promise<void> {
  const read = await readAll(topic, count);
  expect(new Set(read.map((m) => m.key!.toString()))).toEqual(new Set(messages(0, count).map((m) => m.key)));
}

/**
 * A new group id whose coordinator stands as `wanted` says to the leaders of `topic`'s partitions.
 * Kafka keeps a group on the partition of `__consumer_offsets` its id hashes to (Java's
 * String.hashCode, modulo the partitions), whose leader is the group's coordinator.
 */
async function groupWhoseCoordinator(topic: string, wanted: (coordinator: number, leaders: Set<number>) => boolean): Promise<{ groupId: string; coordinator: number }> {
  const [offsets, led] = await withAdmin(async (admin) => {
    const { topics } = await admin.fetchTopicMetadata({ topics: ['__consumer_offsets', topic] });
    return [topics.find((t) => t.name === '__consumer_offsets')!.partitions, new Set(topics.find((t) => t.name === topic)!.partitions.map((p) => p.leader))];
  });
  const javaHash = (text: string) => [...text].reduce((hash, c) => (Math.imul(31, hash) + c.charCodeAt(0)) | 0, 0);
  for (let tries = 0; tries < 1_000; tries++) {
    const groupId = `reader-cluster-spec-${randomUUID()}`;
    const hash = javaHash(groupId);
    const coordinator = offsets.find((p) => p.partitionId === (hash === -2147483648 ? 0 : Math.abs(hash)) % offsets.length)!.leader;
    if (wanted(coordinator, led)) return { groupId, coordinator };
  }
  throw new Error(`no group id found whose coordinator stands as wanted to the leaders of ${topic}`);
}

/** A consumer of the apps' kind (failoverConsumer) in group `groupId`, reading `topic` from the start until stopped; its crashes and joins noted. */
function keepReading(topic: string, groupId: string) {
  const consumer = failoverConsumer(client('reader'), { groupId, maxWaitTimeInMs: 100 });
  const keys = new Set<string>();
  /** When each distinct message was first read, in order: the consumer's own pace, not the poll's. */
  const firstReadAt: number[] = [];
  const crashes: string[] = [];
  let joins = 0;
  consumer.on(consumer.events.CRASH, ({ payload }) => crashes.push(`${payload.error.name}: ${payload.error.message}`));
  consumer.on(consumer.events.GROUP_JOIN, () => void joins++);
  const running = consumer.connect().then(async () => {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const key = message.key!.toString();
        if (keys.has(key)) return;
        keys.add(key);
        firstReadAt.push(Date.now());
      },
    });
  });
  return {
    crashes,
    joins: () => joins,
    /** Waits until `count` distinct messages were read, and gives the time the last of them was; throws after `withinMs`. */
    until: async (count: number, withinMs = 90_000): Promise<number> => {
      const started = Date.now();
      await running;
      for (; keys.size < count; await new Promise((r) => setTimeout(r, 100))) {
        if (Date.now() - started > withinMs) throw new Error(`read ${keys.size} of ${count} messages in ${withinMs / 1000} s (crashes: ${crashes.join('; ')})`);
      }
      return firstReadAt[count - 1];
    },
    stop: () => consumer.disconnect(),
  };
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

  it('loses no write when a leader hangs (SIGSTOP) mid-send and comes back after its partitions moved on', async () => {
    // A hung broker (or one cut off the network) keeps its connections open: the send's request to
    // it gets no answer, while the other leaders answer for their partitions once the controller has
    // fenced it and shrunk the in-sync replicas. When it wakes it answers "not the leader", and the
    // retry must send its partitions' messages to their new leaders.
    const topic = `tailsync.cluster-spec-hung-${randomUUID().slice(0, 8)}`;
    await ensureTopics(connectionOf('admin'), [{ topic, numPartitions: 6 }]);
    const leaders = () => partitionsOf(topic);
    // As admin: tail-sync may write tailsync.tail-events only, which the next test counts.
    const producer = idempotentProducer(client('admin'));
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages: messages(0, 300) });
      const spread = new Set((await leaders()).map((p) => p.leader));
      expect(spread.size).toBe(3); // the send below goes to every broker

      const leaderOf0 = (await leaders()).find((p) => p.partitionId === 0)!.leader;
      const hung = cluster.running.nodes.find((n) => n.nodeId === leaderOf0)!;
      clientLines.clear();
      process.kill(hung.pid()!, 'SIGSTOP');
      hungBroker = hung.address;
      const started = Date.now();
      const step = (what: string) => console.log(`[kafka-cluster] broker ${hung.nodeId} hung: ${what} after ${Date.now() - started} ms`);
      let resumed = false;
      try {
        let sent = false;
        const sending = producer.send({ topic, acks: -1, messages: messages(300, 300) }).then(() => {
          sent = true;
        });
        sending.catch(() => undefined); // awaited below, after the broker is woken
        // Woken only once no partition is led by it any more: its partitions moved on.
        const stillLeads = () => leaders().then((partitions) => partitions.some((p) => p.leader === hung.nodeId), () => true);
        while (await stillLeads()) {
          if (Date.now() - started > 60_000) throw new Error(`broker ${hung.nodeId} still leads partitions 60 s after it hung`);
          await new Promise((r) => setTimeout(r, 500));
        }
        step(`its partitions had new leaders${sent ? ', the send had finished' : ''}`);
        process.kill(hung.pid()!, 'SIGCONT');
        resumed = true;
        await sending;
        step('woken, the send finished');
        reportLines(`broker ${hung.nodeId} hung`);
      } finally {
        if (!resumed) process.kill(hung.pid()!, 'SIGCONT');
        hungBroker = undefined;
      }
    } finally {
      await producer.disconnect();
    }
    const read = await readAll(topic, 600);
    expect(new Set(read.map((m) => m.key!.toString()))).toEqual(new Set(messages(0, 600).map((m) => m.key)));
    expect(read).toHaveLength(600);
    // Back in every in-sync set before the next test loses a broker.
    await allInSync([topic, TOPICS.tailEvents]);
  }, 360_000);

  it('sends to the new leader while the old one still hangs, within the fence and a request time-out (kafkajs request-timeout patch)', async () => {
    const topic = `tailsync.cluster-spec-stuck-${randomUUID().slice(0, 8)}`;
    await ensureTopics(connectionOf('admin'), [{ topic, numPartitions: 1 }]);
    const { leader } = (await partitionsOf(topic))[0];
    const hung = cluster.running.nodes.find((n) => n.nodeId === leader)!;
    // Every broker listed, the leader first: kafkajs bootstraps from the first, so the producer is
    // connected to the leader alone. After the hang every metadata refresh unpatched kafkajs makes
    // goes to the hung broker (the only one "connected"), times out, and the retry sends to it
    // again, for as long as it hangs. Not idempotent: an idempotent producer also connects to the
    // broker that gave it its id (a random one in KRaft), which would make the outcome unpatched a
    // matter of chance. The same send path otherwise.
    const { brokers, ...connection } = connectionOf('admin');
    const kafka = new Kafka({ ...connection, brokers: [hung.address, ...brokers.filter((b) => b !== hung.address)], clientId: 'cluster-spec-stuck', logLevel: logLevel.WARN, logCreator: countLine, ...FAILOVER_CLIENT });
    const producer = kafka.producer({ idempotent: false, allowAutoTopicCreation: false });
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages: messages(0, 50) });
      clientLines.clear();
      process.kill(hung.pid()!, 'SIGSTOP');
      hungBroker = hung.address;
      const started = Date.now();
      const sending = producer.send({ topic, acks: -1, messages: messages(50, 50) }).then(() => Date.now() - started);
      sending.catch(() => undefined); // awaited below, after the broker is woken
      // The fence (broker.session.timeout.ms, after a controller election if the hung broker was the
      // active controller), then the request in flight to the hung broker times out and the retry
      // asks a live broker: BROKER_FAILOVER_MS is twice the fence's budget. Unpatched: never.
      const deadline = BROKER_FAILOVER_MS + REQUEST_TIMEOUT_MS;
      let tookMs: number | 'still sending';
      try {
        tookMs = await Promise.race([sending, new Promise<'still sending'>((r) => setTimeout(() => r('still sending'), deadline))]);
        console.log(`[kafka-cluster] broker ${hung.nodeId} hung: the send to its partition finished after ${tookMs} ms, the broker still hung`);
        reportLines(`broker ${hung.nodeId} hung, not woken`);
      } finally {
        process.kill(hung.pid()!, 'SIGCONT');
        hungBroker = undefined;
      }
      expect(tookMs).not.toBe('still sending');
      await sending;
    } finally {
      await producer.disconnect();
    }
    await expectEveryMessage(topic, 100);
    await allInSync([topic, TOPICS.tailEvents]);
  }, 360_000);

  it('a consumer reads on from the new leader while the old one still hangs, within the fence and a request time-out (kafkajs request-timeout patch)', async () => {
    const topic = `tailsync.cluster-spec-fetch-${randomUUID().slice(0, 8)}`;
    await ensureTopics(connectionOf('admin'), [{ topic, numPartitions: 3 }]);
    const partitions = await partitionsOf(topic);
    // The leader hung is not the group's coordinator: a hung coordinator makes the consumer look it
    // up and may make it rejoin its group, which asks for the leaders anew of its own accord. The
    // fetch alone is under test: timed out on the hung leader, it must ask where the partition
    // went. Unpatched, the time-out goes up to the runner, whose retries fetch from the hung broker
    // again with the same metadata, for as long as it hangs.
    const { groupId, coordinator } = await groupWhoseCoordinator(topic, (c, leaders) => [...leaders].some((leader) => leader !== c));
    const { partitionId: partition, leader } = partitions.find((p) => p.leader !== coordinator)!;
    const hung = cluster.running.nodes.find((n) => n.nodeId === leader)!;
    const toHungPartition = (from: number, count: number) => messages(from, count).map((m) => ({ ...m, partition }));
    const producer = idempotentProducer(client('admin'));
    await producer.connect();
    const reading = keepReading(topic, groupId);
    try {
      await producer.send({ topic, acks: -1, messages: toHungPartition(0, 50) });
      await reading.until(50);
      clientLines.clear();
      process.kill(hung.pid()!, 'SIGSTOP');
      hungBroker = hung.address;
      const started = Date.now();
      // As for a send: the fence, then the fetch in flight to the hung broker times out and the
      // consumer asks a live broker for the leader. Unpatched: not while the broker hangs.
      const deadline = BROKER_FAILOVER_MS + REQUEST_TIMEOUT_MS;
      let readMs: number | 'still reading';
      try {
        // Through the new leader: the producer moves on within the same bound.
        await producer.send({ topic, acks: -1, messages: toHungPartition(50, 50) });
        const sentMs = Date.now() - started;
        readMs = await reading.until(100, deadline - sentMs).then(
          (readAt) => readAt - started,
          () => 'still reading' as const,
        );
        const read = readMs === 'still reading' ? `not all read by the consumer ${deadline} ms after it` : `the last read by the consumer ${readMs} ms after it`;
        console.log(`[kafka-cluster] broker ${hung.nodeId} hung: 50 messages sent to the new leader ${sentMs} ms after the SIGSTOP, ${read}, the broker still hung`);
        reportLines(`broker ${hung.nodeId} hung, a consumer fetching from it`);
      } finally {
        process.kill(hung.pid()!, 'SIGCONT');
        hungBroker = undefined;
      }
      expect(readMs).not.toBe('still reading');
      // It rode the leader change out without crashing or rejoining its group.
      expect(reading.crashes).toEqual([]);
      expect(reading.joins()).toBe(1);
    } finally {
      await reading.stop();
      await producer.disconnect();
    }
    await expectEveryMessage(topic, 100);
    await allInSync([topic, TOPICS.tailEvents]);
  }, 360_000);

  it('makes a new producer after a send that failed for good, so the broker does not refuse the next as out of order (RenewingProducer)', async () => {
    const topic = `tailsync.cluster-spec-renew-${randomUUID().slice(0, 8)}`;
    await ensureTopics(connectionOf('admin'), [{ topic, numPartitions: 1 }]);
    const [partition] = await partitionsOf(topic);
    const followers = cluster.running.nodes.filter((n) => n.nodeId !== partition.leader && partition.replicas.includes(n.nodeId));
    // Gives up on a send after two tries of 2 s (kafkajs refuses an idempotent producer without
    // retries): it stands in for a send that ran through FAILOVER_RETRY (over 50 s).
    const impatient = new Kafka({ ...connectionOf('admin'), clientId: 'cluster-spec-impatient', logLevel: logLevel.NOTHING, requestTimeout: 2_000, retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 100 } });
    const producer = new RenewingProducer(() => idempotentProducer(impatient));
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages: messages(0, 10) });
      // The leader appends the batch, then waits for the hung followers' copies: no answer within
      // 2 s, twice. With two of the three controllers hung there is no quorum to fence them, so the
      // leader cannot drop them from the ISR and answer, however long the two tries take.
      for (const follower of followers) process.kill(follower.pid()!, 'SIGSTOP');
      try {
        await expect(producer.send({ topic, acks: -1, messages: messages(10, 10) })).rejects.toThrow('timed out');
      } finally {
        for (const follower of followers) process.kill(follower.pid()!, 'SIGCONT');
      }
      await allInSync([topic]);
      // kafkajs rolled the failed batch's sequence numbers back, but the leader has it: the same
      // producer would reuse them, and the broker refuses a batch that overlaps them as
      // OUT_OF_ORDER_SEQUENCE_NUMBER (and drops one of exactly the same range as a duplicate).
      // The new producer's numbers are its own.
      await producer.send({ topic, acks: -1, messages: messages(20, 5) });
      await producer.send({ topic, acks: -1, messages: messages(25, 10) });
    } finally {
      await producer.disconnect();
    }
    // The failed send was written after all (at least once); nothing after it was lost.
    await expectEveryMessage(topic, 35);
    await allInSync([topic, TOPICS.tailEvents]);
  }, 480_000);

  it('takes acks=all writes while one broker is SIGKILLed, and a consumer reads every one, each written by an idempotent producer; an app\'s consumer reads on without restarting', async () => {
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
      // The broker lost leads partitions of the topic and is the coordinator of a consumer made as
      // the apps make theirs, reading across the loss (each broker coordinates a third of the groups).
      const { groupId, coordinator: leader } = await groupWhoseCoordinator(TOPICS.tailEvents, (coordinator, leaders) => leaders.has(coordinator));
      const reading = keepReading(TOPICS.tailEvents, groupId);
      await reading.until(300);
      clientLines.clear();
      await cluster.running.nodes.find((n) => n.nodeId === leader)!.kill();
      const started = Date.now();
      await producer.send({ topic: TOPICS.tailEvents, acks: -1, messages: messages(300, 300) });
      console.log(`[kafka-cluster] broker ${leader} SIGKILLed: 300 acks=all messages written in ${Date.now() - started} ms by the other two`);
      reportLines(`broker ${leader} SIGKILLed`);
      // The controller fenced the lost broker (its 9 s session): out of every ISR, every partition led by a live one.
      expect((await replicaCounts([TOPICS.tailEvents]))[TOPICS.tailEvents]).toEqual(Array.from({ length: 6 }, () => ({ replicas: 3, isr: 2 })));
      // It rode out the loss of its leaders and its coordinator: no crash, so no restart and no
      // rejoin of its group (kafkajs's restart is a rebalance for every other member).
      const readStarted = Date.now();
      await reading.until(600).finally(() => reading.stop());
      console.log(`[kafka-cluster] broker ${leader} SIGKILLed: the consumer read the 300 new messages ${Date.now() - readStarted} ms after they were written; joined its group ${reading.joins()} time(s)`);
      expect(reading.crashes).toEqual([]);
      expect(reading.joins()).toBe(1);
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
