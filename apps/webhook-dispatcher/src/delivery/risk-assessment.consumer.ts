import { Logger } from '@nestjs/common';
import { DLQ_HEADERS, RISK_ASSESSMENT_EXECUTED, TOPICS } from '@tailsync/contracts';
import { Murmur2Partitioner, PeriodicOffsetCommits } from '@tailsync/service-kit';
import { Consumer, Kafka, KafkaMessage, logLevel, Producer } from 'kafkajs';
import type { SubscriptionReader } from '../subscriptions/subscription-cache';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import type { DeliveryMetrics } from './delivery.metrics';
import type { DeliveryStore, NewDelivery } from './delivery.store';
import { callbackBody, parseRiskAssessmentMessage } from './domain/event-message';

export interface ConsumerOptions {
  brokers: string[];
  clientId: string;
  groupId: string;
  topic?: string;
  dlqTopic?: string;
}

/** Where fresh pending deliveries go: stored durably, then attempted (the delivery scheduler). */
export interface DeliveryIntake {
  /** Resolves once every delivery is stored; returns how many were new (not seen before). */
  admit(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): Promise<number>;
}

const CHUNK = 1000;
/**
 * The least time between two offset commits. kafkajs committed after every batch: at a steady rate,
 * one OffsetCommit per event. A crash now re-reads at most this much more of the topic, and a
 * re-read event makes no second delivery.
 */
const COMMIT_INTERVAL_MS = 100;

/**
 * Consumes `product.risk-assessment-executed` in batches (its own consumer group, so copies share
 * the partitions). Per batch: malformed messages go to the `.dlq` topic with the reason; the valid
 * ones are matched against the subscriptions of their domains (kept in memory: SubscriptionCache)
 * and stored as deliveries (duplicates ignored): the pending ones through the scheduler, which
 * attempts them at once. Only then are the offsets resolved, and committed within
 * `COMMIT_INTERVAL_MS`: at-least-once, nothing lost when the process is killed at any point.
 */
export class RiskAssessmentConsumer {
  private readonly logger = new Logger('RiskAssessmentConsumer');
  private readonly kafka: Kafka;
  private consumer: Consumer | undefined;
  private producer: Producer | undefined;
  private readonly topic: string;
  private readonly dlqTopic: string;
  /** Per partition, the next offset to read: every message before it is stored or sent to the DLQ. */
  private readonly handled = new Map<number, { offset: string; committed: boolean }>();
  private readonly commits = new PeriodicOffsetCommits(() => this.consumer, {
    intervalMs: COMMIT_INTERVAL_MS,
    due: () => [...this.handled].filter(([, h]) => !h.committed).map(([partition, h]) => ({ topic: this.topic, partition, offset: h.offset })),
    committed: (positions) => {
      for (const { partition, offset } of positions) {
        const h = this.handled.get(partition);
        if (h?.offset === offset) h.committed = true;
      }
    },
  });

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly subscriptions: SubscriptionReader,
    private readonly intake: DeliveryIntake,
    private readonly metrics: DeliveryMetrics,
    private readonly options: ConsumerOptions,
  ) {
    this.topic = options.topic ?? TOPICS.riskAssessmentExecuted;
    this.dlqTopic = options.dlqTopic ?? TOPICS.riskAssessmentExecutedDlq;
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: logLevel.WARN,
      retry: { initialRetryTime: 100, retries: 10 },
    });
  }

  async start(): Promise<void> {
    this.producer = this.kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Murmur2Partitioner });
    await this.producer.connect();
    this.consumer = this.kafka.consumer({
      groupId: this.options.groupId,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      rebalanceTimeout: 10_000,
      maxWaitTimeInMs: 50,
      allowAutoTopicCreation: false,
    });
    await this.consumer.connect();
    // A new assignment: forget the partitions that went to another copy (it reads on from the committed position).
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      const assigned = new Set(payload.memberAssignment[this.topic] ?? []);
      for (const partition of this.handled.keys()) if (!assigned.has(partition)) this.handled.delete(partition);
    });
    // A group that never committed starts at the beginning: no event produced before the first copy joined is missed.
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 3,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        for (let i = 0; i < batch.messages.length; i += CHUNK) {
          if (!isRunning() || isStale()) return;
          const chunk = batch.messages.slice(i, i + CHUNK);
          await this.handle(chunk, batch.partition);
          const last = chunk[chunk.length - 1].offset;
          resolveOffset(last);
          this.handled.set(batch.partition, { offset: (BigInt(last) + 1n).toString(), committed: false });
          this.commits.schedule();
          await heartbeat();
        }
      },
    });
  }

  async stop(): Promise<void> {
    // Commit while still in the group; a batch finishing after it is read again by the next owner.
    await this.commits.close().catch(() => undefined);
    await this.consumer?.disconnect().catch(() => undefined);
    await this.producer?.disconnect().catch(() => undefined);
  }

  private async handle(messages: KafkaMessage[], partition: number): Promise<void> {
    this.metrics.consumed.inc(messages.length);
    const valid: NewDelivery[] = [];
    const dead: { message: KafkaMessage; reason: string }[] = [];
    for (const message of messages) {
      const parsed = parseRiskAssessmentMessage(message.key, message.value);
      if (parsed.ok) {
        valid.push({ domain: parsed.event.domain, eventId: parsed.event.eventId, eventName: RISK_ASSESSMENT_EXECUTED, body: callbackBody(parsed.event) });
      } else {
        dead.push({ message, reason: parsed.reason });
      }
    }

    if (dead.length > 0) {
      await this.producer!.send({
        topic: this.dlqTopic,
        acks: -1,
        messages: dead.map(({ message, reason }) => ({
          key: message.key,
          value: message.value,
          headers: {
            [DLQ_HEADERS.reason]: reason,
            [DLQ_HEADERS.topic]: this.topic,
            [DLQ_HEADERS.partition]: String(partition),
            [DLQ_HEADERS.offset]: message.offset,
            [DLQ_HEADERS.at]: new Date().toISOString(),
          },
        })),
      });
      this.metrics.skipped.inc({ reason: 'malformed' }, dead.length);
      for (const { message, reason } of dead) {
        this.logger.warn({ msg: 'malformed event sent to the DLQ', partition, offset: message.offset, reason });
      }
    }

    if (valid.length === 0) return;
    const subs = await this.subscriptions.getMany([...new Set(valid.map((d) => d.domain))]);
    const pending: NewDelivery[] = [];
    const skipped: NewDelivery[] = [];
    for (const delivery of valid) {
      const sub = subs.get(delivery.domain);
      if (!sub) this.metrics.skipped.inc({ reason: 'no-subscription' });
      else if (!sub.eventNames.includes(delivery.eventName)) this.metrics.skipped.inc({ reason: 'event-not-subscribed' });
      else if (sub.status === 'disabled') {
        // Recorded, not sent: the delivery log shows it, and a recovery can send it later.
        this.metrics.skipped.inc({ reason: 'subscription-disabled' });
        skipped.push({ ...delivery, status: 'skipped' });
      } else pending.push(delivery);
    }
    const [recorded, admitted] = await Promise.all([this.deliveries.insertMany(skipped), this.intake.admit(pending, subs)]);
    const duplicates = skipped.length + pending.length - recorded - admitted;
    if (duplicates > 0) this.metrics.skipped.inc({ reason: 'duplicate' }, duplicates);
  }
}
