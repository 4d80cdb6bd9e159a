import { Module } from '@nestjs/common';
import { TestCallLimit } from './infrastructure/test-call-limit';
import { WebhookSubscriptionsController } from './interface/webhook-subscriptions.controller';
import { JwksController } from './interface/jwks.controller';

/** The webhook subscription endpoints (they call webhook-dispatcher over gRPC). */
@Module({ controllers: [WebhookSubscriptionsController, JwksController], providers: [TestCallLimit], exports: [TestCallLimit] })
export class WebhooksModule {}
