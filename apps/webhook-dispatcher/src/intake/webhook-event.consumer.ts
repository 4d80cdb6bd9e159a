import { Logger } from '@nestjs/common';
import { DLQ_HEADERS, type WebhookEventType } from '@tailsync/contracts';
import { countingKafkaLogs, exitWhenConsumerStopsForGood, FAILOVER_CLIENT, failoverConsumer, idempotentProducer, PeriodicOffsetCommits, type KafkaConnection, RenewingProducer, validTraceparent } from '@tailsync/service-kit';
import { Admin, Consumer, Kafka, KafkaMessage, logLevel } from 'kafkajs';
import type { SubscriptionReader } from '../subscriptions/subscription-cache';
import type { StoredSubscription } from '../subscriptions/subscription.store';
import type { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import type { NewDelivery } from '../delivery-log/delivery';
import type { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { ConfirmedMembership } from './confirmed-membership';
import { callbackBody } from './domain/event-message';
import { type FirstAttempt, firstAttemptOf } from './domain/first-attempt';
import { InputTopic } from './input-topic';

export interface ConsumerOptions {
  kafka: KafkaConnection;
  clientId: string;
  groupId: string;
  /** The event types read: the copy's (`EVENT_TYPES`, config/dispatcher-settings.ts). */
  eventTypes: readonly WebhookEventType[];
}

/** Where fresh pending deliveries go: stored durably and attempted (DeliveryAdmission, into the scheduler). */
export interface DeliveryIntake {
  /** Stored, then attempted. Resolves once every delivery is stored; returns how many were new (not seen before). */
  admit(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): Promise<number>;
  /** Attempted at once, stored behind: `stored` resolves once every delivery is stored, with how many were new. */
  admitAttemptingFirst(fresh: NewDelivery[], subscriptions: Map<string, StoredSubscription>): Promise<{ stored: Promise<number> }>;
  /** Stored due `holdMs` from now, for the claims; returns how many were new. */
  hold(fresh: NewDelivery[], holdMs: number): Promise<number>;
}

const CHUNK = 1000;
/**
 * The least time between two offset commits. kafkajs committed after every batch: at a steady rate,
 * one OffsetCommit per event. A crash now re-reads at most this much more of the topic, and a
 * re-read event makes no second delivery.
 */
const COMMIT_INTERVAL_MS = 100;
/** The group's session timeout: a copy that stops heartbeating loses its partitions after it. */
const SESSION_TIMEOUT_MS = 10_000;
/**
 * How long an event the partition's previous owner may have read waits before the claims attempt
 * it: that copy writes the lease of an attempt it started within about 100 ms (WriteBehindLeases).
 */
export const INHERITED_HOLD_MS = 3_000;
/** The largest batch whose events are attempted before they are stored: the steady trickle. */
const ATTEMPT_FIRST_MAX_BATCH = 32;

/**
 * Consumes the input topics of the webhook event types (`WEBHOOK_EVENT_TYPES`) in batches, in one
 * consumer group, so copies share the partitions. Per batch: malformed messages go to the `.dlq` topic with the reason; the valid
 * ones are matched against the subscriptions of their domains (kept in memory: SubscriptionCache)
 * and handed to the scheduler, each admitted as `firstAttemptOf` says (domain/first-attempt.ts):
 * a small batch of new events is attempted at once, its leases written behind; a burst is stored
 * first; events the partition's previous owner may still be attempting are held. A batch's offset is
 * committed (within `COMMIT_INTERVAL_MS`) only once all its deliveries are stored, batches in
 * order: at-least-once, nothing lost when the process is killed at any point.
 */
export class WebhookEventConsumer {
  private readonly logger = new Logger('WebhookEventConsumer');
  private readonly kafka: Kafka;
  private consumer: Consumer | undefined;
  private producer: RenewingProducer | undefined;
  /** Asks for the partitions' high-water marks after each assignment (InheritedOffsets). */
  private admin: Admin | undefined;
  /** Per input topic, its event type and offsets. */
  private readonly inputs: Map<string, InputTopic>;
  private readonly membership = new ConfirmedMembership();
  private readonly commits: PeriodicOffsetCommits;

  constructor(
    private readonly deliveries: NewDeliveries,
    private readonly subscriptions: SubscriptionReader,
    private readonly intake: DeliveryIntake,
    private readonly metrics: DeliveryMetrics,
    private readonly options: ConsumerOptions,
  ) {
    const moved = () => this.commits.schedule();
    this.inputs = new Map(options.eventTypes.map((type) => [type.input.topic, new InputTopic(type, moved)]));
    this.commits = new PeriodicOffsetCommits(() => this.consumer, {
      intervalMs: COMMIT_INTERVAL_MS,
      due: () => [...this.inputs.values()].flatMap((input) => input.offsets.due()),
      committed: (positions) => {
        for (const input of this.inputs.values()) input.offsets.committed(positions);
      },
    });
    this.kafka = new Kafka({
      ...options.kafka,
      clientId: options.clientId,
      logLevel: logLevel.WARN,
      logCreator: countingKafkaLogs('webhook-events'),
      // Its fetches, joins and DLQ sends ride out a partition leader's loss, and notice a cut-off broker within seconds.
      ...FAILOVER_CLIENT,
    });
  }

  async start(): Promise<void> {
    // A DLQ send that fails for good leaves a new producer for the batch read again (RenewingProducer).
    this.producer = new RenewingProducer(() => idempotentProducer(this.kafka));
    await this.producer.connect();
    this.admin = this.kafka.admin();
    await this.admin.connect();
    this.consumer = failoverConsumer(this.kafka, {
      groupId: this.options.groupId,
      sessionTimeout: SESSION_TIMEOUT_MS,
      heartbeatInterval: 1_000,
      rebalanceTimeout: 10_000,
      maxWaitTimeInMs: 50,
      allowAutoTopicCreation: false,
    });
    exitWhenConsumerStopsForGood(this.consumer, this.options.kafka, 'webhook-dispatcher');
    await this.consumer.connect();
    // A new assignment: forget the partitions that went to another copy (it reads on from the committed position).
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      this.membership.confirm();
      for (const input of this.inputs.values()) {
        input.inherited.reassigned(this.highWatermarks(input.topic));
        input.offsets.reassigned(new Set(payload.memberAssignment[input.topic] ?? []));
      }
    });
    this.consumer.on(this.consumer.events.HEARTBEAT, () => this.membership.confirm());
    // A group that never committed starts at the beginning: no event produced before the first copy joined is missed.
    await this.consumer.subscribe({ topics: [...this.inputs.keys()], fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 3,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        const input = this.inputs.get(batch.topic)!;
        const inheritedBelow = await input.inherited.boundOf(batch.partition, batch.highWatermark);
        for (let i = 0; i < batch.messages.length; i += CHUNK) {
          if (!isRunning() || isStale()) return;
          const chunk = batch.messages.slice(i, i + CHUNK);
          const { stored } = await this.handle(input, chunk, batch.partition, inheritedBelow);
          const last = chunk[chunk.length - 1].offset;
          resolveOffset(last);
          input.offsets.after(batch.partition, (BigInt(last) + 1n).toString(), stored);
          await heartbeat();
        }
      },
    });
  }

  private async highWatermarks(topic: string): Promise<Map<number, bigint>> {
    const partitions = await this.admin!.fetchTopicOffsets(topic);
    return new Map(partitions.map((p) => [p.partition, BigInt(p.high)]));
  }

  async stop(): Promise<void> {
    // Commit while still in the group what is stored by then; a batch stored after it is read again by the next owner.
    const deadline = Date.now() + 5_000;
    await Promise.all([...this.inputs.values()].map((input) => input.offsets.settled(deadline)));
    await this.commits.close().catch(() => undefined);
    await this.consumer?.disconnect().catch(() => undefined);
    await this.producer?.disconnect().catch(() => undefined);
    await this.admin?.disconnect().catch(() => undefined);
  }

  /** Resolves once the batch is handed on; `stored` once every delivery of it is stored. */
  private async handle({ type, parse }: InputTopic, messages: KafkaMessage[], partition: number, inheritedBelow: bigint): Promise<{ stored: Promise<unknown> }> {
    this.metrics.consumed.inc(messages.length);
    const valid: (NewDelivery & { offset: bigint })[] = [];
    const dead: { message: KafkaMessage; reason: string }[] = [];
    for (const message of messages) {
      const parsed = parse(message.key, message.value);
      if (parsed.ok) {
        const traceparent = validTraceparent(message.headers?.traceparent?.toString());
        valid.push({
          domain: parsed.event.domain, eventId: parsed.event.eventId, eventName: type.name, body: callbackBody(type.name, parsed.event),
          ...(traceparent !== undefined ? { traceparent } : {}), position: { partition, offset: message.offset }, offset: BigInt(message.offset),
        });
      } else {
        dead.push({ message, reason: parsed.reason });
      }
    }

    if (dead.length > 0) {
      await this.producer!.send({
        topic: type.deadLetters.topic,
        acks: -1,
        messages: dead.map(({ message, reason }) => ({
          key: message.key,
          value: message.value,
          headers: {
            [DLQ_HEADERS.reason]: reason,
            [DLQ_HEADERS.topic]: type.input.topic,
            [DLQ_HEADERS.partition]: String(partition),
            [DLQ_HEADERS.offset]: message.offset,
            [DLQ_HEADERS.at]: new Date().toISOString(),
          },
        })),
      });
      this.metrics.skipped.inc({ reason: 'malformed' }, dead.length);
      for (const { message, reason } of dead) {
        this.logger.warn({ msg: 'malformed event sent to the DLQ', topic: type.input.topic, partition, offset: message.offset, reason });
      }
    }

    if (valid.length === 0) return { stored: Promise.resolve() };
    const subs = await this.subscriptions.getMany([...new Set(valid.map((d) => d.domain))]);
    const skipped: NewDelivery[] = [];
    const admitted: Record<FirstAttempt, NewDelivery[]> = { hold: [], 'attempt-first': [], 'store-first': [] };
    const standing = { sinceConfirmed: this.membership.since(), trustMs: SESSION_TIMEOUT_MS / 2, batchSize: valid.length, attemptFirstMaxBatch: ATTEMPT_FIRST_MAX_BATCH };
    for (const { offset, ...delivery } of valid) {
      const sub = subs.get(delivery.domain);
      if (!sub) this.metrics.skipped.inc({ reason: 'no-subscription' });
      else if (!sub.eventNames.includes(delivery.eventName)) this.metrics.skipped.inc({ reason: 'event-not-subscribed' });
      else if (sub.status === 'disabled') {
        // Recorded, not sent: the delivery log shows it, and a recovery can send it later.
        this.metrics.skipped.inc({ reason: 'subscription-disabled' });
        skipped.push({ ...delivery, status: 'skipped' });
      } else admitted[firstAttemptOf({ offset, inheritedBelow }, standing)].push(delivery);
    }
    // Called first: its attempts start before anything here waits.
    const attemptingFirst = this.intake.admitAttemptingFirst(admitted['attempt-first'], subs);
    const [{ stored: attemptedFirst }, ...storedNow] = await Promise.all([
      attemptingFirst,
      this.deliveries.insertMany(skipped), this.intake.hold(admitted.hold, INHERITED_HOLD_MS), this.intake.admit(admitted['store-first'], subs),
    ]);
    const total = skipped.length + admitted.hold.length + admitted['attempt-first'].length + admitted['store-first'].length;
    // Failing, it holds the partition's commits back (CommittableOffsets).
    const stored = attemptedFirst.then((n) => {
      const duplicates = total - n - storedNow.reduce((a, b) => a + b, 0);
      if (duplicates > 0) this.metrics.skipped.inc({ reason: 'duplicate' }, duplicates);
    });
    return { stored };
  }
}
