import { Module } from '@nestjs/common';
import { WebhookSubscriptionsController } from './webhook-subscriptions.controller';
import { JwksController } from './jwks.controller';

/** The webhook subscription endpoints (they call webhook-dispatcher over gRPC). */
@Module({ controllers: [WebhookSubscriptionsController, JwksController] })
export class WebhooksModule {}
