import { Module } from '@nestjs/common';
import type { WebhookEventType } from '@tailsync/contracts';
import { INSTANCE_ID, kafkaConnection, PG_POOL } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { ConsumerLag } from '../admin/consumer-lag';
import { DeliveryActivityStore } from '../admin/delivery-activity.store';
import { AttemptsModule } from '../attempts/attempts.module';
import { BackfillModule } from '../backfill/backfill.module';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { DeliveryLogModule } from '../delivery-log/delivery-log.module';
import { EVENT_TYPES } from '../config/dispatcher-settings';
import { IntakeModule } from '../intake/intake.module';
import { SchedulingModule } from '../scheduling/scheduling.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { AdminRequests } from './admin-requests';
import { BackfillRequests } from './backfill-requests';
import { EventFeedRequests } from './event-feed-requests';
import { RecoveryRequests } from './recovery-requests';
import { SigningKeyRequests } from './signing-key-requests';
import { SubscriptionRequests } from './subscription-requests';

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
