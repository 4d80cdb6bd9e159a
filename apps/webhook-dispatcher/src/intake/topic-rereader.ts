import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { WebhookEventType } from '@tailsync/contracts';
import { Murmur2Partitioner, ProblemError, type KafkaConnection } from '@tailsync/service-kit';
import { Kafka, logLevel } from 'kafkajs';
import type { NewDelivery } from '../delivery-log/delivery';
import { callbackBody, eventMessageParser } from './domain/event-message';

export interface TopicRereaderOptions {
  kafka: KafkaConnection;
  clientId: string;
  /** Whose input topics are read (the registry's, or test topics). */
  eventTypes: readonly WebhookEventType[];
  /** Each read joins a consumer group of its own named with this prefix (the dispatcher's ACL allows it). */
  groupPrefix: string;
}

/**
 * Reads a domain's events again from the input topics, for a backfill. A topic's key is the
 * domain, so they are all on the partition the producers' partitioner (murmur2) gives it: that one
 * partition of each event type's topic is read from the first offset at or after `since` to its end
 * when the read starts.
 * Messages that do not parse, or are another domain's, are passed over (the consumer sent the
 * malformed ones to the DLQ when it met them).
 */
export class TopicRereader {
  private readonly logger = new Logger('TopicRereader');

  constructor(private readonly options: TopicRereaderOptions) {}

  /** The domain's events from `since`, each topic's in its order; fails (503) when the reads are not done by `deadline`. */
  async read(domain: string, since: Date, deadline: number): Promise<NewDelivery[]> {
    const found: NewDelivery[] = [];
    for (const type of this.options.eventTypes) found.push(...(await this.readTopic(type, domain, since, deadline)));
    return found;
  }

  private async readTopic(type: WebhookEventType, domain: string, since: Date, deadline: number): Promise<NewDelivery[]> {
    const { topic } = type.input;
    const parse = eventMessageParser(type);
    const kafka = new Kafka({ ...this.options.kafka, clientId: this.options.clientId, logLevel: logLevel.WARN, retry: { retries: 3 } });
    const admin = kafka.admin();
    await admin.connect();
    let partition: number;
    let start: bigint;
    let end: bigint;
    try {
      const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
      partition = Murmur2Partitioner()({ topic, partitionMetadata: metadata.partitions, message: { key: domain, value: null } });
      start = BigInt((await admin.fetchTopicOffsetsByTimestamp(topic, since.getTime())).find((p) => p.partition === partition)!.offset);
      end = BigInt((await admin.fetchTopicOffsets(topic)).find((p) => p.partition === partition)!.high);
    } finally {
      await admin.disconnect();
    }
    if (start >= end) return [];

    const found: NewDelivery[] = [];
    const groupId = `${this.options.groupPrefix}${randomUUID()}`;
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100, allowAutoTopicCreation: false });
    let finish!: (outcome: 'read' | 'crashed') => void;
    const done = new Promise<'read' | 'crashed'>((resolve) => (finish = resolve));
    // kafkajs does not restart a consumer after some errors (a refused group): fail now, not at the deadline.
    const crashed = (error: Error) => {
      this.logger.error({ msg: 'a backfill could not read the topic', groupId, error: error.message, hint: `the principal needs Read on groups prefixed ${this.options.groupPrefix}` });
      finish('crashed');
    };
    consumer.on(consumer.events.CRASH, ({ payload }) => crashed(payload.error));
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: false });
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          if (batch.partition !== partition) return;
          for (const message of batch.messages) {
            const offset = BigInt(message.offset);
            if (offset < start || offset >= end) continue;
            const parsed = parse(message.key, message.value);
            if (!parsed.ok || parsed.event.domain !== domain) continue;
            found.push({
              domain, eventId: parsed.event.eventId, eventName: type.name, body: callbackBody(type.name, parsed.event),
              position: { partition, offset: message.offset },
            });
          }
          if (BigInt(batch.lastOffset()) + 1n >= end) finish('read');
        },
      });
      try {
        consumer.seek({ topic, partition, offset: start.toString() });
      } catch (error) {
        crashed(error as Error); // it never joined its group
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()))));
      const outcome = await Promise.race([done, late]).finally(() => clearTimeout(timer));
      if (outcome === 'late') {
        throw new ProblemError({ kind: 'unavailable', detail: 'Reading the topic took too long; nothing was backfilled. Try a later since, or again.' });
      }
      if (outcome === 'crashed') throw new ProblemError({ kind: 'unavailable', detail: 'The topic cannot be read now; nothing was backfilled.' });
      return found;
    } finally {
      await consumer.disconnect().catch(() => undefined);
    }
  }
}
