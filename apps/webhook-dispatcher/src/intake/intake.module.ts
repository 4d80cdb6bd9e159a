import { Module } from '@nestjs/common';
import { backfillGroupPrefix, type WebhookEventType } from '@tailsync/contracts';
import { INSTANCE_ID, kafkaConnection } from '@tailsync/service-kit';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { WriteBehindLeases } from '../attempts/write-behind-leases';
import { AttemptsModule } from '../attempts/attempts.module';
import { DeliveryLogModule } from '../delivery-log/delivery-log.module';
import { DeliveryMetrics } from '../delivery-log/delivery.metrics';
import { NewDeliveries } from '../delivery-log/new-deliveries.store';
import { EVENT_TYPES } from '../config/dispatcher-settings';
import { DeliveryScheduler } from '../scheduling/delivery.scheduler';
import { SchedulingModule } from '../scheduling/scheduling.module';
import { SubscriptionCache } from '../subscriptions/subscription-cache';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { DeliveryAdmission } from './delivery-admission';
import { TopicRereader } from './topic-rereader';
import { WebhookEventConsumer } from './webhook-event.consumer';

/** A backfill's read that gets no batch from the broker for this long fails (the job is marked failed). */
const REREAD_STALL_MS = 30_000;

/** Events in: the consumer of every input topic, how its deliveries are admitted to the scheduler, and the backfill's reader. */
@Module({
  imports: [DeliveryLogModule, SubscriptionsModule, AttemptsModule, SchedulingModule],
  providers: [
    {
      provide: DeliveryAdmission,
      inject: [NewDeliveries, DeliveryScheduler, WriteBehindLeases],
      useFactory: (deliveries: NewDeliveries, scheduler: DeliveryScheduler, leaseWrites: WriteBehindLeases) => new DeliveryAdmission(deliveries, scheduler, leaseWrites),
    },
    {
      provide: WebhookEventConsumer,
      inject: [NewDeliveries, SubscriptionCache, DeliveryAdmission, DeliveryMetrics, WebhookDispatcherConfig, INSTANCE_ID, EVENT_TYPES],
      useFactory: (
        deliveries: NewDeliveries, subscriptions: SubscriptionCache, admission: DeliveryAdmission, metrics: DeliveryMetrics,
        config: WebhookDispatcherConfig, instanceId: string, eventTypes: readonly WebhookEventType[],
      ) =>
        new WebhookEventConsumer(deliveries, subscriptions, admission, metrics, {
          kafka: kafkaConnection(config),
          clientId: `webhook-dispatcher-events-${instanceId}`,
          groupId: config.WEBHOOK_EVENTS_GROUP_ID,
          eventTypes,
        }),
    },
    {
      provide: TopicRereader,
      inject: [WebhookDispatcherConfig, INSTANCE_ID],
      useFactory: (config: WebhookDispatcherConfig, instanceId: string) =>
        new TopicRereader({
          kafka: kafkaConnection(config),
          clientId: `webhook-dispatcher-backfill-${instanceId}`,
          groupPrefix: backfillGroupPrefix(config.WEBHOOK_EVENTS_GROUP_ID),
          stallMs: REREAD_STALL_MS,
        }),
    },
  ],
  exports: [DeliveryAdmission, WebhookEventConsumer, TopicRereader],
})
export class IntakeModule {}
