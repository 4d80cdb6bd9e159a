import { randomUUID } from 'node:crypto';
import { Consumer, Kafka, logLevel } from 'kafkajs';

export const kafka = () =>
  new Kafka({ clientId: `e2e-${randomUUID().slice(0, 8)}`, brokers: (process.env.KAFKA_BROKERS as string).split(','), logLevel: logLevel.NOTHING });

export interface Collected<T> {
  key: string;
  value: T;
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
  const consumer: Consumer = kafka().consumer({ groupId: `e2e-${randomUUID()}`, maxWaitTimeInMs: 100 });
  const messages: Collected<T>[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    await consumer.run({
      eachMessage: async ({ message }) => {
        const m = { key: message.key?.toString() ?? '', value: JSON.parse(message.value?.toString() ?? 'null') as T };
        if (filter(m)) messages.push(m);
        if (done(messages)) finish();
      },
    });
    await Promise.race([finished, new Promise((r) => setTimeout(r, timeoutMs))]);
    return messages;
  } finally {
    await consumer.disconnect();
  }
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
  const consumer: Consumer = kafka().consumer({ groupId: `e2e-read-${randomUUID()}`, maxWaitTimeInMs: 100 });
  const messages: RawMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = String(value);
        messages.push({ partition, offset: message.offset, key: message.key?.toString() ?? null, value: message.value, headers });
        if (Number(message.offset) >= (lastOffsets.get(partition) ?? Infinity)) lastOffsets.delete(partition);
        if (lastOffsets.size === 0) finish();
      },
    });
    const timedOut = new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`${topic}: partitions ${[...lastOffsets.keys()]} not read to their end`)), timeoutMs));
    await Promise.race([finished, timedOut]);
    return messages;
  } finally {
    await consumer.disconnect();
  }
}
