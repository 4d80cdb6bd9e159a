import { Module } from '@nestjs/common';
import { TestCallLimit } from './test-call-limit';
import { WebhookSubscriptionsController } from './webhook-subscriptions.controller';

/** The webhook subscription endpoints (they call webhook-dispatcher over gRPC). */
@Module({ controllers: [WebhookSubscriptionsController], providers: [TestCallLimit], exports: [TestCallLimit] })
export class WebhooksModule {}
