import { Module } from '@nestjs/common';
import { WEBHOOK_EVENT_TYPES } from '@tailsync/contracts';
import { INSTANCE_ID, kafkaConnection, PG_POOL, SecretBox } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { ConsumerLag } from '../admin/consumer-lag';
import { DeliveryActivityStore } from '../admin/delivery-activity.store';
import { AttemptsModule } from './attempts.module';
import { WebhookTester } from '../attempts/webhook-tester';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { DeliveryLogModule } from './delivery-log.module';
import { DeliveryLog } from '../delivery-log/delivery-log.store';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { IntakeModule } from './intake.module';
import { TopicRereader } from '../intake/topic-rereader';
import { DeliveryScheduler } from '../scheduling/delivery.scheduler';
import { SchedulingModule } from './scheduling.module';
import { SubscriptionEventsPublisher } from '../subscriptions/subscription-events.publisher';
import { SubscriptionState } from '../subscriptions/subscription-state';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { SubscriptionsModule } from './subscriptions.module';
import { AdminRequests } from '../interface/admin-requests';
import { BackfillRequests } from '../interface/backfill-requests';
import { RecoveryRequests } from '../interface/recovery-requests';
import { SigningKeyRequests } from '../interface/signing-key-requests';
import { SubscriptionRequests } from '../interface/subscription-requests';

/** The handlers of the gateway's calls (webhook-dispatcher.grpc.ts routes to them), each given exactly the parts it uses. */
@Module({
  imports: [DeliveryLogModule, SubscriptionsModule, AttemptsModule, SchedulingModule, IntakeModule],
  providers: [
    {
      provide: SubscriptionRequests,
      inject: [WebhookDispatcherConfig, SecretBox, SubscriptionStore, SubscriptionState, WebhookTester, DeliveryLog, DeliveryScheduler],
      useFactory: (
        config: WebhookDispatcherConfig, box: SecretBox, subscriptions: SubscriptionStore, state: SubscriptionState, tester: WebhookTester,
        deliveryLog: DeliveryLog, scheduler: DeliveryScheduler,
      ) => new SubscriptionRequests(config, box, subscriptions, state, tester, deliveryLog, scheduler),
    },
    {
      provide: RecoveryRequests,
      inject: [WebhookDispatcherConfig, SubscriptionStore, DeliveryLog, DeliveryScheduler],
      useFactory: (config: WebhookDispatcherConfig, subscriptions: SubscriptionStore, deliveryLog: DeliveryLog, scheduler: DeliveryScheduler) =>
        new RecoveryRequests(config, subscriptions, deliveryLog, scheduler),
    },
    {
      provide: BackfillRequests,
      inject: [WebhookDispatcherConfig, SubscriptionStore, TopicRereader, NewDeliveries, DeliveryScheduler],
      useFactory: (config: WebhookDispatcherConfig, subscriptions: SubscriptionStore, rereader: TopicRereader, deliveries: NewDeliveries, scheduler: DeliveryScheduler) =>
        new BackfillRequests(config, subscriptions, rereader, deliveries, scheduler),
    },
    {
      provide: SigningKeyRequests,
      inject: [WebhookDispatcherConfig, SecretBox, SubscriptionStore, SubscriptionEventsPublisher],
      useFactory: (config: WebhookDispatcherConfig, box: SecretBox, subscriptions: SubscriptionStore, events: SubscriptionEventsPublisher) =>
        new SigningKeyRequests(config, box, subscriptions, events),
    },
    { provide: DeliveryActivityStore, inject: [PG_POOL], useFactory: (pool: Pool) => new DeliveryActivityStore(pool) },
    {
      provide: ConsumerLag,
      inject: [WebhookDispatcherConfig, INSTANCE_ID],
      useFactory: (config: WebhookDispatcherConfig, instanceId: string) =>
        new ConsumerLag(kafkaConnection(config), `webhook-dispatcher-admin-${instanceId}`, config.WEBHOOK_EVENTS_GROUP_ID, WEBHOOK_EVENT_TYPES.map((type) => type.input.topic)),
    },
    AdminRequests,
  ],
  exports: [SubscriptionRequests, RecoveryRequests, BackfillRequests, SigningKeyRequests, AdminRequests],
})
export class RequestsModule {}
