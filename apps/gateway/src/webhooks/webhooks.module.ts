import { Module } from '@nestjs/common';
import { TestCallLimit } from './test-call-limit';
import { WebhookSubscriptionsController } from './webhook-subscriptions.controller';
import { JwksController } from './jwks.controller';

/** The webhook subscription endpoints (they call webhook-dispatcher over gRPC). */
@Module({ controllers: [WebhookSubscriptionsController, JwksController], providers: [TestCallLimit], exports: [TestCallLimit] })
export class WebhooksModule {}
