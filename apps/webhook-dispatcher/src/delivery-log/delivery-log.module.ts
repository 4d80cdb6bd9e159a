import { Module } from '@nestjs/common';
import { PG_POOL } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { PLANNED_ONCE_POOL } from '../config/dispatcher-settings';
import { BatchPools } from './batch-pools';
import { DeliveryLogRetention } from './delivery-log-retention';
import { DeliveryLog } from './delivery-log.store';
import { DeliveryMetrics } from './delivery.metrics';
import { EventFeed } from './event-feed.store';
import { NewDeliveries } from './new-deliveries.store';

/** The delivery tables: rows made, the calls' queries, weekly partitions and their retention, the delivery metrics. */
@Module({
  providers: [
    { provide: BatchPools, inject: [PG_POOL, PLANNED_ONCE_POOL], useFactory: (pool: Pool, plannedOnce: Pool) => new BatchPools(pool, plannedOnce) },
    NewDeliveries,
    { provide: DeliveryLog, inject: [PG_POOL], useFactory: (pool: Pool) => new DeliveryLog(pool) },
    DeliveryMetrics,
    { provide: EventFeed, inject: [PG_POOL], useFactory: (pool: Pool) => new EventFeed(pool) },
    {
      provide: DeliveryLogRetention,
      inject: [PG_POOL, DeliveryMetrics, WebhookDispatcherConfig],
      useFactory: (pool: Pool, metrics: DeliveryMetrics, config: WebhookDispatcherConfig) =>
        new DeliveryLogRetention(pool, metrics, { retentionDays: config.WEBHOOK_LOG_RETENTION_DAYS }),
    },
  ],
  exports: [BatchPools, NewDeliveries, DeliveryLog, DeliveryMetrics, DeliveryLogRetention, EventFeed],
})
export class DeliveryLogModule {}
