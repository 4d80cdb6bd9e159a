import { Module } from '@nestjs/common';
import type { WebhookEventType } from '@tailsync/contracts';
import { INSTANCE_ID, kafkaConnection, PG_POOL } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { ConsumerLag } from '../admin/consumer-lag';
import { DeliveryActivityStore } from '../admin/delivery-activity.store';
import { AttemptsModule } from './attempts.module';
import { BackfillModule } from './backfill.module';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { DeliveryLogModule } from './delivery-log.module';
import { EVENT_TYPES } from './dispatcher-settings';
import { IntakeModule } from './intake.module';
import { SchedulingModule } from './scheduling.module';
import { SubscriptionsModule } from './subscriptions.module';
import { AdminRequests } from '../interface/admin-requests';
import { BackfillRequests } from '../interface/backfill-requests';
import { EventFeedRequests } from '../interface/event-feed-requests';
import { RecoveryRequests } from '../interface/recovery-requests';
import { SigningKeyRequests } from '../interface/signing-key-requests';
import { SubscriptionRequests } from '../interface/subscription-requests';

/** The handlers of the gateway's calls (webhook-dispatcher.grpc.ts routes to them), each given exactly the parts it uses. */
@Module({
  imports: [DeliveryLogModule, SubscriptionsModule, AttemptsModule, SchedulingModule, IntakeModule, BackfillModule],
  providers: [
    SubscriptionRequests,
    RecoveryRequests,
    BackfillRequests,
    SigningKeyRequests,
    { provide: DeliveryActivityStore, inject: [PG_POOL], useFactory: (pool: Pool) => new DeliveryActivityStore(pool) },
    {
      provide: ConsumerLag,
      inject: [WebhookDispatcherConfig, INSTANCE_ID, EVENT_TYPES],
      useFactory: (config: WebhookDispatcherConfig, instanceId: string, eventTypes: readonly WebhookEventType[]) =>
        new ConsumerLag(kafkaConnection(config), `webhook-dispatcher-admin-${instanceId}`, config.WEBHOOK_EVENTS_GROUP_ID, eventTypes.map((type) => type.input.topic)),
    },
    AdminRequests,
    EventFeedRequests,
  ],
  exports: [SubscriptionRequests, RecoveryRequests, BackfillRequests, SigningKeyRequests, AdminRequests, EventFeedRequests],
})
export class RequestsModule {}
