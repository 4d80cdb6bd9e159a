import { Module } from '@nestjs/common';
import { WebhookSubscriptionsController } from './webhook-subscriptions.controller';

/** The webhook subscription endpoints (they call webhook-dispatcher over gRPC). */
@Module({ controllers: [WebhookSubscriptionsController] })
export class WebhooksModule {}
