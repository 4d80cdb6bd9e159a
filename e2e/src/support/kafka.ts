import { messageValidator, type TailEventMessage, type TopicContract, TOPICS } from '@tailsync/contracts';
import { randomUUID } from 'node:crypto';
import { kafkaConnection, type KafkaConnection } from '@tailsync/service-kit';
import { principalSettings, readKafkaClients, type KafkaClients, type Principal } from '@tailsync/tools/testing';
import { type Admin, Consumer, Kafka, logLevel, type EachMessagePayload } from 'kafkajs';

/** The principals of the broker `npm test` started (SASL/SCRAM with the contract's ACLs). */
export function testKafkaClients(): KafkaClients {
  const file = process.env.TAILSYNC_KAFKA_CLIENTS_FILE;
  if (!file) throw new Error('TAILSYNC_KAFKA_CLIENTS_FILE is not set: run the suite with `npm test` (its broker runs with SASL and ACLs)');
  return readKafkaClients(file);
}

/** The settings (KAFKA_SASL_*) an app started as one of those principals gets. */
export const principalEnv = (principal: Principal): Record<string, string> => principalSettings(testKafkaClients(), principal);

/** The connection of one of those principals, with the run's TLS settings. */
export const principalKafka = (principal: Principal): KafkaConnection =>
  kafkaConnection({ KAFKA_SSL: process.env.KAFKA_SSL, KAFKA_SSL_CA_FILE: process.env.KAFKA_SSL_CA_FILE, ...principalEnv(principal) });

/** The test's own client: the broker `npm test` started, as the principal its environment names (admin). */
export const kafka = () => new Kafka({ ...kafkaConnection(process.env), clientId: `e2e-${randomUUID().slice(0, 8)}`, logLevel: logLevel.NOTHING });

export interface Collected<T> {
  key: string;
  value: T;
}

/**
 * Reads a topic from the beginning with a fresh consumer group, handing each message to `take`
 * until it returns true (→ true) or the time runs out (→ false).
 */
async function readFromStart(topic: string, take: (payload: EachMessagePayload) => boolean, timeoutMs: number): Promise<boolean> {
  // A client with a principal of narrower rights (the compose test's reader) names the groups it may use.
  const consumer: Consumer = kafka().consumer({ groupId: `${process.env.E2E_KAFKA_GROUP_PREFIX ?? 'e2e-'}${randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let finish: (done: boolean) => void = () => undefined;
    const finished = new Promise<boolean>((resolve) => (finish = resolve));
    await consumer.run({ eachMessage: async (payload) => void (take(payload) && finish(true)) });
    const timer = setTimeout(() => finish(false), timeoutMs);
    const done = await finished;
    clearTimeout(timer);
    return done;
  } finally {
    await consumer.disconnect();
  }
}

/**
 * Reads a topic from the beginning with a fresh consumer group until `done(messages)` holds
 * or the time runs out; returns what was read.
 */
export async function collect<T>(
  topic: string,
  done: (messages: Collected<T>[]) => boolean,
  timeoutMs = 30_000,
  filter: (m: Collected<T>) => boolean = () => true,
): Promise<Collected<T>[]> {
  const messages: Collected<T>[] = [];
  await readFromStart(
    topic,
    ({ message }) => {
      const m = { key: message.key?.toString() ?? '', value: JSON.parse(message.value?.toString() ?? 'null') as T };
      if (filter(m)) messages.push(m);
      return done(messages);
    },
    timeoutMs,
  );
  return messages;
}

/** Which of a domain's `tailIds` are on tailsync.tail-events, read until all are or the time runs out. */
export async function tailIdsOnTopic(domain: string, tailIds: string[], timeoutMs: number): Promise<Set<string>> {
  const seen = new Set<string>();
  await collect<TailEventMessage>(
    TOPICS.tailEvents,
    (messages) => {
      for (const m of messages) for (const id of m.value.mappedIds) seen.add(id);
      return tailIds.every((id) => seen.has(id));
    },
    timeoutMs,
    (m) => m.value.domain === domain,
  );
  return seen;
}

export interface RawMessage {
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/** Every message a topic holds now: read from the start until each partition's end as it was when called. */
export async function readToEnd(topic: string, timeoutMs = 60_000): Promise<RawMessage[]> {
  const admin = kafka().admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const lastOffsets = new Map(ends.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high) - 1]));
  if (lastOffsets.size === 0) return [];
  const messages: RawMessage[] = [];
  const read = await readFromStart(
    topic,
    ({ partition, message }) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = String(value);
      messages.push({ partition, offset: message.offset, key: message.key?.toString() ?? null, value: message.value, headers });
      if (Number(message.offset) >= (lastOffsets.get(partition) ?? Infinity)) lastOffsets.delete(partition);
      return lastOffsets.size === 0;
    },
    timeoutMs,
  );
  if (!read) throw new Error(`${topic}: partitions ${[...lastOffsets.keys()]} not read to their end`);
  return messages;
}

/** What is wrong with a message by the topic's published schemas (key, headers, value). */
export function schemaViolations(topic: TopicContract, m: RawMessage): string[] {
  const checkKey = messageValidator(topic.message.key);
  const checkHeaders = topic.message.headers ? messageValidator(topic.message.headers) : () => null;
  const checkValue = messageValidator(topic.message.payload);
  const found = [checkKey(m.key), checkHeaders(m.headers)];
  // The dead letter's value is the refused bytes; only JSON messages have a value schema to meet.
  if (topic.message.contentType === 'application/json') found.push(checkValue(JSON.parse(m.value?.toString('utf8') ?? 'null')));
  return found.filter((v): v is string => v !== null).map((v) => `${topic.topic} ${m.partition}@${m.offset}: ${v}`);
}

/** Sends a well-formed risk assessment of a domain nobody subscribed to `topic` (whatever gets through harms nothing). */
export const produceHarmless = (topic: string) => async (kafka: Kafka) => {
  const producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
  await producer.connect();
  try {
    const event = { eventId: randomUUID(), domain: 'attacker', occurredAt: new Date().toISOString(), data: {} };
    await producer.send({ topic, acks: -1, messages: [{ key: event.domain, value: JSON.stringify(event) }] });
  } finally {
    await producer.disconnect();
  }
};

/** Runs `run` with an admin client of `kafka`, connected for it and disconnected after. */
export const withAdmin = async <T>(kafka: Kafka, run: (admin: Admin) => Promise<T>): Promise<T> => {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.disconnect();
  }
};
