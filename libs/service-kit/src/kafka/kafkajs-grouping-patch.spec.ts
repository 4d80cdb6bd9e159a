/**
 * The kafkajs grouping patch: kafkajs's own grouping (kept below as the reference), message for
 * message, and a send through the real Kafka broker the test command starts (`KAFKA_BROKERS`) that
 * lands every message on its key's partition in send order.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { testKafka } from './test-kafka.test-support';
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Message, type PartitionerArgs, type PartitionMetadata } from 'kafkajs';
import { ensureTopics } from './ensure-topics';
import { idempotentProducer } from './idempotent-producer';
import { consumeFromStart } from './fixtures/consume-from-start';
import { murmur2, Murmur2Partitioner } from './murmur2-partitioner';

const connection = testKafka('kafkajs-grouping-patch.spec.ts');

interface GroupingInput {
  topic: string;
  partitionMetadata: PartitionMetadata[];
  messages: Message[];
  partitioner: (args: PartitionerArgs) => number;
}
type Grouping = ((input: GroupingInput) => Record<number, Message[]>) & { tailsyncPatch?: string };

const patched = require('kafkajs/src/producer/groupMessagesPerPartition') as Grouping;

/** kafkajs 2.2.4's `producer/groupMessagesPerPartition.js` as published, the reference. */
const published: Grouping = ({ topic, partitionMetadata, messages, partitioner }) => {
  if (partitionMetadata.length === 0) {
    return {};
  }
  return messages.reduce<Record<number, Message[]>>((result, message) => {
    const partition = partitioner({ topic, partitionMetadata, message });
    const current = result[partition] || [];
    return Object.assign(result, { [partition]: [...current, message] });
  }, {});
};

const partitionMetadata = (count: number) => Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
/** Java's choice for a keyed message: murmur2 of the key, positive, modulo the partitions. */
const partitionOfKey = (key: string, partitions: number) => (murmur2(key) & 0x7fffffff) % partitions;

describe('kafkajs grouping patch', () => {
  it('is applied: kafkajs groups with the one-pass grouping', () => {
    expect(patched.tailsyncPatch).toBe('grouping');
  });

  it('groups exactly as published kafkajs does: the same partitions, each in send order', () => {
    for (const [count, partitions] of [
      [0, 6],
      [1, 6],
      [1_000, 6],
      [777, 1],
      [300, 48],
    ]) {
      const messages: Message[] = Array.from({ length: count }, (_, i) => ({
        key: `acme:${i % 97}`,
        value: `m${i}`,
        ...(i % 7 === 0 ? { partition: i % partitions } : {}),
      }));
      const input = { topic: 't', partitionMetadata: partitionMetadata(partitions), messages };
      // (Keyless messages go round-robin from a random start: keyed and explicit ones are compared.)
      const ours = patched({ ...input, partitioner: Murmur2Partitioner() });
      const theirs = published({ ...input, partitioner: Murmur2Partitioner() });
      expect(Object.keys(ours)).toEqual(Object.keys(theirs));
      expect(ours).toEqual(theirs);
      expect(Object.values(ours).flat()).toHaveLength(count);
    }
    const none = { topic: 't', partitionMetadata: [], messages: [{ value: 'x' }], partitioner: Murmur2Partitioner() };
    expect(patched(none)).toEqual({});
    expect(published(none)).toEqual({});
  });

  it('sends a thousand keyed messages that the broker stores on their keys’ partitions, in send order', async () => {
    const topic = `test.kafkajs-grouping.${randomBytes(4).toString('hex')}`;
    const partitions = 6;
    await ensureTopics(connection, [{ topic, numPartitions: partitions }]);
    const kafka = new Kafka({ ...connection, clientId: 'grouping-spec', logLevel: logLevel.NOTHING });
    // As the apps make theirs: a send retried on a loaded machine is not stored twice.
    const producer = idempotentProducer(kafka);
    const sent = Array.from({ length: 1_000 }, (_, i) => ({ key: `acme:${i % 40}`, value: String(i) }));
    try {
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: sent });
    } finally {
      await producer.disconnect();
    }
    const received = await consumeFromStart(kafka, topic, sent.length);
    for (let p = 0; p < partitions; p++) {
      const stored = received.filter((r) => r.partition === p).map((r) => ({ key: r.message.key?.toString(), value: r.message.value?.toString() }));
      expect([p, stored]).toEqual([p, sent.filter((m) => partitionOfKey(m.key, partitions) === p)]);
    }
  }, 40_000);
});
