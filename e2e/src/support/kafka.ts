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
