import { messageValidator, type TailEventMessage, type TopicContract, TOPICS } from '@tailsync/contracts';
import { randomUUID } from 'node:crypto';
import { kafkaConnection, type KafkaConnection } from '@tailsync/service-kit';
import { readFromStart, readToEnd as readTopicToEnd, type RawMessage, type TopicReadOptions } from '@tailsync/service-kit/testing';
import { principalSettings, readKafkaClients, type KafkaClients, type Principal } from '@tailsync/tools/testing';
import { type Admin, Kafka, logLevel } from 'kafkajs';

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

export type { RawMessage };

export interface Collected<T> {
  key: string;
  value: T;
}

/** Reads with the test's own client, in the consumer groups its principal may use. */
const readOptions = (timeoutMs: number): TopicReadOptions => ({ groupPrefix: process.env.E2E_KAFKA_GROUP_PREFIX ?? 'e2e-', timeoutMs });

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
    kafka(),
    topic,
    ({ message }) => {
      const m = { key: message.key?.toString() ?? '', value: JSON.parse(message.value?.toString() ?? 'null') as T };
      if (filter(m)) messages.push(m);
      return done(messages);
    },
    readOptions(timeoutMs),
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

/** Every message a topic holds now: read from the start until each partition's end as it was when called. */
export const readToEnd = (topic: string, timeoutMs = 60_000): Promise<RawMessage[]> => readTopicToEnd(kafka(), topic, readOptions(timeoutMs));

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
