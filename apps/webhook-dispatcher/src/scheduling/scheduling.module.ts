import { Module } from '@nestjs/common';
import { INSTANCE_ID, PG_POOL } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { AttemptRecorder } from '../attempts/attempt.recorder';
import { AttemptRunner } from '../attempts/attempt.runner';
import { AttemptsModule } from '../attempts/attempts.module';
import { WriteBehindLeases } from '../attempts/write-behind-leases';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { DeliveryLogModule } from '../delivery-log/delivery-log.module';
import { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import { SubscriptionCache } from '../subscriptions/subscription-cache';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { DeliveryLeases } from './delivery-leases.store';
import { DeliveryScheduler } from './delivery.scheduler';
import { FlowGate } from './flow-gate';

/** A capped domain's place outlives its attempt's time limit by this much (a copy that died mid-attempt lets go of it then). */
const FLOW_HOLD_MARGIN_MS = 5_000;

/** Which copy attempts which delivery when: leases, per-domain queues, the flow gate of capped domains. */
@Module({
  imports: [DeliveryLogModule, SubscriptionsModule, AttemptsModule],
  providers: [
    { provide: DeliveryLeases, inject: [PG_POOL], useFactory: (pool: Pool) => new DeliveryLeases(pool) },
    {
      provide: FlowGate,
      inject: [PG_POOL, WebhookDispatcherConfig],
      useFactory: (pool: Pool, config: WebhookDispatcherConfig) => new FlowGate(pool, config.WEBHOOK_ATTEMPT_TIMEOUT_MS + FLOW_HOLD_MARGIN_MS),
    },
    {
      provide: DeliveryScheduler,
      inject: [DeliveryLeases, SubscriptionCache, AttemptRunner, AttemptRecorder, DeliveryMetrics, WebhookDispatcherConfig, INSTANCE_ID, WriteBehindLeases, FlowGate],
      useFactory: (
        leases: DeliveryLeases, subscriptions: SubscriptionCache, runner: AttemptRunner, recorder: AttemptRecorder,
        metrics: DeliveryMetrics, config: WebhookDispatcherConfig, instanceId: string, leaseWrites: WriteBehindLeases, gate: FlowGate,
      ) =>
        new DeliveryScheduler(leases, subscriptions, runner, recorder, metrics, {
          owner: `${instanceId}:${process.pid}`,
          attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
          maxConcurrency: config.WEBHOOK_MAX_CONCURRENCY,
          domainConcurrency: config.WEBHOOK_DOMAIN_CONCURRENCY,
          pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
        }, leaseWrites, gate),
    },
  ],
  exports: [DeliveryScheduler],
})
export class SchedulingModule {}
