import { Logger } from '@nestjs/common';
import { backfillGroupPrefix, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@tailsync/contracts';
import { SecretBox, kafkaConnection, createPool } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { AttemptRecorder } from './attempts/attempt.recorder';
import { AttemptRunner } from './attempts/attempt.runner';
import { AttemptSender } from './attempts/attempt.sender';
import { CallbackKeys } from './subscriptions/callback-keys';
import { DeliveryLogRetention } from './delivery-log/delivery-log-retention';
import { DeliveryMetrics } from './delivery-log/delivery.metrics';
import { DeliveryScheduler } from './scheduling/delivery.scheduler';
import { AttemptRecords } from './attempts/attempt-records.store';
import { BatchPools } from './delivery-log/batch-pools';
import { DeliveryLog } from './delivery-log/delivery-log.store';
import { NewDeliveries } from './delivery-log/new-deliveries.store';
import { DeliveryLeases } from './scheduling/delivery-leases.store';
import { FlowGate } from './scheduling/flow-gate';
import { parseRetryDelays } from './attempts/domain/retry-policy';
import { WebhookEventConsumer } from './intake/webhook-event.consumer';
import { TopicRereader } from './intake/topic-rereader';
import { WriteBehindLeases } from './attempts/write-behind-leases';
import { migrateDispatcherTables } from './store/migrate';
import { backfillSecretIds } from './subscriptions/subscription-secrets';
import { SubscriptionEventsPublisher } from './subscriptions/subscription-events.publisher';
import { SubscriptionCache } from './subscriptions/subscription-cache';
import { SubscriptionState } from './subscriptions/subscription-state';
import { SubscriptionStore } from './subscriptions/subscription.store';
import { UnsealedSecrets } from './subscriptions/unsealed-secrets';
import { WebhookTester } from './attempts/webhook-tester';

/**
 * Attempts finishing within this long of each other are recorded by one statement: at 200/s about
 * 13 per commit instead of one each. The callbacks are already sent; a crash in between repeats
 * those attempts once their leases run out (at-least-once, as for any crash mid-attempt).
 */
const RECORD_LINGER_MS = 100;
/**
 * First attempts started within this long of each other have their leases written by one
 * statement, after the attempts began: at 200/s about 20 per statement instead of a round trip
 * before each attempt. Their offsets are committed once the leases are written.
 */
const LEASE_WRITE_LINGER_MS = 100;

/** A capped domain's place outlives its attempt's time limit by this much (a copy that died mid-attempt lets go of it then). */
const FLOW_HOLD_MARGIN_MS = 5_000;

/**
 * Everything one dispatcher copy runs, built from its settings: the stores, the event consumer,
 * the delivery scheduler and the Test caller. Nest wires the RPC handlers to it; tests build it
 * directly against the real PostgreSQL and Kafka.
 */
export class DispatcherRuntime {
  readonly pool: Pool;
  /** Writes the steady path's small batches, planning each statement once per connection (BatchPools). */
  readonly plannedOncePool: Pool;
  readonly subscriptions: SubscriptionStore;
  /** The subscriptions deliveries go to, kept in memory while PostgreSQL's change notices arrive. */
  readonly subscriptionCache: SubscriptionCache;
  /** Makes delivery rows, one per (domain, event id). */
  readonly newDeliveries: NewDeliveries;
  /** A domain's deliveries as the gateway's calls read and change them. */
  readonly deliveryLog: DeliveryLog;
  readonly box: SecretBox;
  readonly sender: AttemptSender;
  readonly metrics = new DeliveryMetrics();
  readonly scheduler: DeliveryScheduler;
  readonly consumer: WebhookEventConsumer;
  /** Reads a domain's events again from the input topics, for a backfill. */
  readonly rereader: TopicRereader;
  readonly tester: WebhookTester;
  readonly state: SubscriptionState;
  readonly events: SubscriptionEventsPublisher;
  /** Drops the delivery log's weeks past WEBHOOK_LOG_RETENTION_DAYS (on one copy at a time). */
  readonly retention: DeliveryLogRetention;
  private readonly logger = new Logger('DispatcherRuntime');

  constructor(
    readonly config: WebhookDispatcherConfig,
    readonly instanceId: string,
    options: { pool?: Pool; consume?: boolean; eventTypes?: readonly WebhookEventType[]; leaseWriteLingerMs?: number } = {},
  ) {
    this.pool = options.pool ?? createPool(config.DATABASE_URL);
    this.plannedOncePool = options.pool ?? createPool(config.DATABASE_URL, 4, 'once');
    this.subscriptions = new SubscriptionStore(this.pool);
    this.subscriptionCache = new SubscriptionCache(this.subscriptions, {
      connectionString: this.pool.options.connectionString,
      options: this.pool.options.options,
      application_name: 'webhook-dispatcher-subscription-notices',
      connectionTimeoutMillis: 5_000,
    });
    const pools = new BatchPools(this.pool, this.plannedOncePool);
    this.newDeliveries = new NewDeliveries(pools);
    this.deliveryLog = new DeliveryLog(this.pool);
    const attemptRecords = new AttemptRecords(pools, {
      disableAfterFailures: config.WEBHOOK_DISABLE_AFTER_FAILURES,
      disableAfterHours: config.WEBHOOK_DISABLE_AFTER_HOURS,
    });
    this.box = new SecretBox(config.WEBHOOK_SECRET_KEY);
    this.sender = new AttemptSender(config.WEBHOOK_ALLOW_PRIVATE_URLS);
    const callbackKeys = new CallbackKeys(new UnsealedSecrets(this.box));
    this.tester = new WebhookTester(callbackKeys, this.sender);
    this.events = new SubscriptionEventsPublisher(this.pool, { kafka: kafkaConnection(config), clientId: `webhook-dispatcher-subscription-events-${instanceId}` });
    this.state = new SubscriptionState(this.subscriptions, this.events);
    const leaseWrites = new WriteBehindLeases(this.newDeliveries, { lingerMs: options.leaseWriteLingerMs ?? LEASE_WRITE_LINGER_MS });
    const recorder = new AttemptRecorder(attemptRecords, this.state, this.metrics, { lingerMs: RECORD_LINGER_MS }, leaseWrites);
    const runner = new AttemptRunner(callbackKeys, this.sender, recorder, this.metrics, this.state, {
      retryDelaysMs: parseRetryDelays(config.WEBHOOK_RETRY_DELAYS_MS),
      retryAfterMaxMs: config.WEBHOOK_RETRY_AFTER_MAX_MS,
      attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
    });
    this.scheduler = new DeliveryScheduler(this.newDeliveries, new DeliveryLeases(this.pool), this.subscriptionCache, runner, recorder, this.metrics, {
      owner: `${instanceId}:${process.pid}`,
      attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
      maxConcurrency: config.WEBHOOK_MAX_CONCURRENCY,
      domainConcurrency: config.WEBHOOK_DOMAIN_CONCURRENCY,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
    }, leaseWrites, new FlowGate(this.pool, config.WEBHOOK_ATTEMPT_TIMEOUT_MS + FLOW_HOLD_MARGIN_MS));
    const eventTypes = options.eventTypes ?? WEBHOOK_EVENT_TYPES;
    this.consumer = new WebhookEventConsumer(this.newDeliveries, this.subscriptionCache, this.scheduler, this.metrics, {
      kafka: kafkaConnection(config),
      clientId: `webhook-dispatcher-events-${instanceId}`,
      groupId: config.WEBHOOK_EVENTS_GROUP_ID,
      eventTypes,
    });
    this.retention = new DeliveryLogRetention(this.pool, this.metrics, { retentionDays: config.WEBHOOK_LOG_RETENTION_DAYS });
    this.rereader = new TopicRereader({
      kafka: kafkaConnection(config),
      clientId: `webhook-dispatcher-backfill-${instanceId}`,
      eventTypes,
      groupPrefix: backfillGroupPrefix(config.WEBHOOK_EVENTS_GROUP_ID),
    });
  }

  /** Runs the pending migrations (serialised across copies) and fills in what only the app can. Call before serving anything. */
  async migrate(): Promise<void> {
    await migrateDispatcherTables(this.pool, new Logger('Migrations'));
    await backfillSecretIds(this.subscriptions, this.box);
  }

  async start(): Promise<void> {
    await this.events.start();
    await this.subscriptionCache.start();
    await this.retention.start();
    this.scheduler.start();
    await this.consumer.start();
    this.logger.log({ msg: 'delivering webhooks', allowPrivateUrls: this.config.WEBHOOK_ALLOW_PRIVATE_URLS });
  }

  /** Stops consuming, finishes and records the attempts in flight, closes connections (not the pool). */
  async stop(): Promise<void> {
    await this.consumer.stop();
    await this.scheduler.stop();
    await this.retention.stop();
    await this.subscriptionCache.stop();
    await this.events.stop();
    this.sender.close();
  }
}
