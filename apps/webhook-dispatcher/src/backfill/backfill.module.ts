import { Module } from '@nestjs/common';
import type { WebhookEventType } from '@tailsync/contracts';
import { INSTANCE_ID, PG_POOL } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { BackfillJobs } from './backfill-jobs.store';
import { BackfillWorker } from './backfill.worker';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { TopicRereader } from '../intake/topic-rereader';
import { DeliveryScheduler } from '../scheduling/delivery.scheduler';
import { DeliveryLogModule } from '../delivery-log/delivery-log.module';
import { DISPATCHER_SETTINGS, type DispatcherSettings, EVENT_TYPES } from '../config/dispatcher-settings';
import { IntakeModule } from '../intake/intake.module';
import { SchedulingModule } from '../scheduling/scheduling.module';

/** A job's page: the domain's events read and stored at once (its memory), and checkpointed with them. */
const PAGE_SIZE = 500;
/** How often an idle copy looks for a queued job (queueing one on this copy wakes it at once). */
const CLAIM_POLL_MS = 1_000;

/** Backfill jobs: their table, and the worker that claims and runs them under the cap across copies. */
@Module({
  imports: [DeliveryLogModule, IntakeModule, SchedulingModule],
  providers: [
    { provide: BackfillJobs, inject: [PG_POOL, NewDeliveries], useFactory: (pool: Pool, deliveries: NewDeliveries) => new BackfillJobs(pool, deliveries) },
    {
      provide: BackfillWorker,
      inject: [BackfillJobs, TopicRereader, DeliveryScheduler, WebhookDispatcherConfig, INSTANCE_ID, EVENT_TYPES, DISPATCHER_SETTINGS],
      useFactory: (
        jobs: BackfillJobs, rereader: TopicRereader, scheduler: DeliveryScheduler, config: WebhookDispatcherConfig,
        instanceId: string, eventTypes: readonly WebhookEventType[], settings: DispatcherSettings,
      ) =>
        new BackfillWorker(jobs, rereader, {
          owner: `${instanceId}:${process.pid}`,
          concurrency: config.WEBHOOK_BACKFILL_CONCURRENCY,
          leaseMs: config.WEBHOOK_BACKFILL_LEASE_SECONDS * 1000,
          pageSize: settings.backfillPageSize ?? PAGE_SIZE,
          perSecond: config.WEBHOOK_RECOVERY_PER_SECOND,
          aheadMs: config.WEBHOOK_BACKFILL_AHEAD_SECONDS * 1000,
          pollMs: settings.backfillPollMs ?? CLAIM_POLL_MS,
          eventTypes,
          onStored: () => scheduler.wake(),
        }),
    },
  ],
  exports: [BackfillJobs, BackfillWorker],
})
export class BackfillModule {}
