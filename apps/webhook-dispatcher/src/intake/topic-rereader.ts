import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { WebhookEventType } from '@tailsync/contracts';
import { failoverConsumer, Murmur2Partitioner, type KafkaConnection } from '@tailsync/service-kit';
import { Kafka, logLevel } from 'kafkajs';
import type { NewDelivery } from '../delivery-log/delivery';
import { callbackBody, eventMessageParser } from './domain/event-message';

export interface TopicRereaderOptions {
  kafka: KafkaConnection;
  clientId: string;
  /** Each read joins a consumer group of its own named with this prefix (the dispatcher's ACL allows it). */
  groupPrefix: string;
  /** A read that gets no batch for this long fails (the broker is gone, or the end is unreachable). */
  stallMs: number;
}

/** A stretch of the domain's partition of one topic: read from `next` up to `end` (exclusive), offsets as text. */
export interface TopicStretch {
  partition: number;
  next: string;
  end: string;
}

/** Told about each page read: `next` is where the following page starts; 'stop' ends the read there. */
export type PageHandler = (events: NewDelivery[], next: string) => Promise<'continue' | 'stop'>;

/** Why a read ended: it reached the end, or its handler (or the copy stopping) stopped it. */
export type ReadOutcome = 'read' | 'stopped';

export class TopicUnreadable extends Error {}

/**
 * Reads a domain's events again from the input topics, for a backfill job, page by page. A topic's
 * key is the domain, so they are all on the partition the producers' partitioner (murmur2) gives it.
 * At most one batch of the broker's (1 MB) and one page are held at once, however long the stretch.
 * Messages that do not parse, or are another domain's, are passed over (the consumer sent the
 * malformed ones to the DLQ when it met them).
 */
export class TopicRereader {
  private readonly logger = new Logger('TopicRereader');
  private readonly kafka: Kafka;

  constructor(private readonly options: TopicRereaderOptions) {
    this.kafka = new Kafka({ ...options.kafka, clientId: options.clientId, logLevel: logLevel.WARN, retry: { retries: 3 } });
  }

  /** The domain's partition of the type's topic, from the first offset at or after `since` to its end now. */
  async stretch(type: WebhookEventType, domain: string, since: Date): Promise<TopicStretch> {
    const { topic } = type.input;
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
      const partition = Murmur2Partitioner()({ topic, partitionMetadata: metadata.partitions, message: { key: domain, value: null } });
      const next = (await admin.fetchTopicOffsetsByTimestamp(topic, since.getTime())).find((p) => p.partition === partition)!.offset;
      const end = (await admin.fetchTopicOffsets(topic)).find((p) => p.partition === partition)!.high;
      return { partition, next, end };
    } finally {
      await admin.disconnect();
    }
  }

  /** Reads the stretch in pages of at most `pageSize` of the domain's events, each handed to `onPage` before the next is read. */
  async read(type: WebhookEventType, domain: string, from: TopicStretch, pageSize: number, signal: AbortSignal, onPage: PageHandler): Promise<ReadOutcome> {
    const { topic } = type.input;
    const { partition } = from;
    const end = BigInt(from.end);
    let next = BigInt(from.next);
    if (next >= end) return 'read';
    const parse = eventMessageParser(type);
    const groupId = `${this.options.groupPrefix}${randomUUID()}`;
    const consumer = failoverConsumer(this.kafka, { groupId, maxWaitTimeInMs: 100, allowAutoTopicCreation: false, maxBytesPerPartition: 1_048_576 });
    let finish!: (outcome: ReadOutcome | Error) => void;
    const done = new Promise<ReadOutcome | Error>((resolve) => (finish = resolve));
    let finished = false;
    const settle = (outcome: ReadOutcome | Error) => {
      finished = true;
      finish(outcome);
    };
    // kafkajs does not restart a consumer after some errors (a refused group): fail now, not at the stall limit.
    const crashed = (error: Error) => {
      this.logger.error({ msg: 'a backfill could not read the topic', groupId, error: error.message, hint: `the principal needs Read on groups prefixed ${this.options.groupPrefix}` });
      settle(new TopicUnreadable('The topic cannot be read now.'));
    };
    consumer.on(consumer.events.CRASH, ({ payload }) => crashed(payload.error));
    let lastBatchAt = Date.now();
    const watchdog = setInterval(() => {
      if (signal.aborted) settle('stopped');
      else if (Date.now() - lastBatchAt > this.options.stallMs) settle(new TopicUnreadable('Reading the topic stalled.'));
    }, 250);
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: false });
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          if (finished || batch.partition !== partition) return;
          lastBatchAt = Date.now();
          let page: NewDelivery[] = [];
          const flush = async (): Promise<boolean> => {
            if (signal.aborted) return false;
            const outcome = await onPage(page, next.toString());
            page = [];
            lastBatchAt = Date.now();
            return outcome === 'continue';
          };
          for (const message of batch.messages) {
            const offset = BigInt(message.offset);
            if (offset < next) continue;
            if (offset >= end) break;
            next = offset + 1n;
            const parsed = parse(message.key, message.value);
            if (parsed.ok && parsed.event.domain === domain) {
              page.push({ domain, eventId: parsed.event.eventId, eventName: type.name, body: callbackBody(type.name, parsed.event), position: { partition, offset: message.offset } });
            }
            if (page.length >= pageSize && !(await flush())) return settle('stopped');
          }
          // Control records (transaction markers) may close the stretch: the batch's last offset says where it ends.
          const last = BigInt(batch.lastOffset()) + 1n;
          if (last > next) next = last < end ? last : end;
          if (!(await flush())) return settle('stopped');
          if (next >= end) settle('read');
        },
      });
      try {
        consumer.seek({ topic, partition, offset: next.toString() });
      } catch (error) {
        crashed(error as Error); // it never joined its group
      }
      const outcome = await done;
      if (outcome instanceof Error) throw outcome;
      return outcome;
    } finally {
      clearInterval(watchdog);
      await consumer.disconnect().catch(() => undefined);
    }
  }
}
