/**
 * A topic read from its start by a test, through a consumer group of its own: until a condition
 * holds, or to each partition's end as it was when the read began.
 */
import { randomUUID } from 'node:crypto';
import type { EachMessagePayload, Kafka } from 'kafkajs';

export interface TopicReadOptions {
  /** The consumer group's name starts with it (a principal of narrow rights may use only some). */
  groupPrefix: string;
  timeoutMs: number;
}

export interface RawMessage {
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/** Hands each message to `take` until it returns true (→ true) or the time runs out (→ false). */
export async function readFromStart(kafka: Kafka, topic: string, take: (payload: EachMessagePayload) => boolean, options: TopicReadOptions): Promise<boolean> {
  const consumer = kafka.consumer({ groupId: `${options.groupPrefix}${randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let finish: (done: boolean) => void = () => undefined;
    const finished = new Promise<boolean>((resolve) => (finish = resolve));
    await consumer.run({ eachMessage: async (payload) => void (take(payload) && finish(true)) });
    const timer = setTimeout(() => finish(false), options.timeoutMs);
    const done = await finished;
    clearTimeout(timer);
    return done;
  } finally {
    await consumer.disconnect();
  }
}

/** Every message the topic holds now: read until each partition's end as it was when called. */
export async function readToEnd(kafka: Kafka, topic: string, options: TopicReadOptions): Promise<RawMessage[]> {
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const lastOffsets = new Map(ends.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high) - 1]));
  if (lastOffsets.size === 0) return [];
  const messages: RawMessage[] = [];
  const take = ({ partition, message }: EachMessagePayload) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = String(value);
    messages.push({ partition, offset: message.offset, key: message.key?.toString() ?? null, value: message.value, headers });
    if (Number(message.offset) >= (lastOffsets.get(partition) ?? Infinity)) lastOffsets.delete(partition);
    return lastOffsets.size === 0;
  };
  if (!(await readFromStart(kafka, topic, take, options))) throw new Error(`${topic}: partitions ${[...lastOffsets.keys()]} not read to their end in ${options.timeoutMs / 1000} s`);
  return messages;
}
