import { Module } from '@nestjs/common';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { BatchPools } from '../delivery-log/batch-pools';
import { DeliveryLogModule } from '../delivery-log/delivery-log.module';
import { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../config/dispatcher-settings';
import { CallbackKeys } from '../subscriptions/callback-keys';
import { SubscriptionState } from '../subscriptions/subscription-state';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { AttemptRecords } from './attempt-records.store';
import { AttemptRecorder } from './attempt.recorder';
import { AttemptRunner } from './attempt.runner';
import { AttemptSender } from './attempt.sender';
import { parseRetryDelays } from './domain/retry-policy';
import { WebhookTester } from './webhook-tester';
import { WriteBehindLeases } from './write-behind-leases';

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

/** One attempt: signed, sent, its outcome recorded; the leases written behind first attempts; the Test call. */
@Module({
  imports: [DeliveryLogModule, SubscriptionsModule],
  providers: [
    { provide: AttemptSender, inject: [WebhookDispatcherConfig], useFactory: (config: WebhookDispatcherConfig) => new AttemptSender(config.WEBHOOK_ALLOW_PRIVATE_URLS) },
    WebhookTester,
    {
      provide: AttemptRecords,
      inject: [BatchPools, WebhookDispatcherConfig],
      useFactory: (pools: BatchPools, config: WebhookDispatcherConfig) =>
        new AttemptRecords(pools, { disableAfterFailures: config.WEBHOOK_DISABLE_AFTER_FAILURES, disableAfterHours: config.WEBHOOK_DISABLE_AFTER_HOURS }),
    },
    {
      provide: WriteBehindLeases,
      inject: [NewDeliveries, DISPATCHER_SETTINGS],
      useFactory: (deliveries: NewDeliveries, settings: DispatcherSettings) =>
        new WriteBehindLeases(deliveries, { lingerMs: settings.leaseWriteLingerMs ?? LEASE_WRITE_LINGER_MS }),
    },
    {
      provide: AttemptRecorder,
      inject: [AttemptRecords, SubscriptionState, DeliveryMetrics, WriteBehindLeases],
      useFactory: (records: AttemptRecords, state: SubscriptionState, metrics: DeliveryMetrics, leaseWrites: WriteBehindLeases) =>
        new AttemptRecorder(records, state, metrics, { lingerMs: RECORD_LINGER_MS }, leaseWrites),
    },
    {
      provide: AttemptRunner,
      inject: [CallbackKeys, AttemptSender, AttemptRecorder, DeliveryMetrics, SubscriptionState, WebhookDispatcherConfig],
      useFactory: (keys: CallbackKeys, sender: AttemptSender, recorder: AttemptRecorder, metrics: DeliveryMetrics, state: SubscriptionState, config: WebhookDispatcherConfig) =>
        new AttemptRunner(keys, sender, recorder, metrics, state, {
          retryDelaysMs: parseRetryDelays(config.WEBHOOK_RETRY_DELAYS_MS),
          retryAfterMaxMs: config.WEBHOOK_RETRY_AFTER_MAX_MS,
          attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
        }),
    },
  ],
  exports: [AttemptSender, WebhookTester, WriteBehindLeases, AttemptRecorder, AttemptRunner],
})
export class AttemptsModule {}
