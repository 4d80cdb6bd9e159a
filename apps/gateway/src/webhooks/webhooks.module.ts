import { Module } from '@nestjs/common';
import { WebhookSubscriptionsController } from './webhook-subscriptions.controller';

/** The webhook subscription endpoints (they forward to webhook-dispatcher over Kafka). */
@Module({ controllers: [WebhookSubscriptionsController] })
export class WebhooksModule {}
