import { Inject, Injectable, Logger } from '@nestjs/common';
import { PG_POOL } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { AttemptSender } from './attempts/attempt.sender';
import { BackfillWorker } from './backfill/backfill.worker';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { DeliveryLogRetention } from './delivery-log/delivery-log-retention';
import { WebhookEventConsumer } from './intake/webhook-event.consumer';
import { DeliveryScheduler } from './scheduling/delivery.scheduler';
import { migrateDispatcherTables } from './store/migrate';
import { SubscriptionCache } from './subscriptions/subscription-cache';
import { SubscriptionEventsPublisher } from './subscriptions/subscription-events.publisher';
import { backfillSecretIds } from './subscriptions/subscription-secrets';
import { SubscriptionStore } from './subscriptions/subscription.store';
import { SecretBox } from './sealing/secret-box';

/** The order one dispatcher copy's moving parts start and stop in (app.module.ts runs it with Nest's hooks). */
@Injectable()
export class DispatcherLifecycle {
  private readonly logger = new Logger('DispatcherLifecycle');

  constructor(
    private readonly config: WebhookDispatcherConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly box: SecretBox,
    private readonly subscriptions: SubscriptionStore,
    private readonly events: SubscriptionEventsPublisher,
    private readonly subscriptionCache: SubscriptionCache,
    private readonly retention: DeliveryLogRetention,
    private readonly scheduler: DeliveryScheduler,
    private readonly consumer: WebhookEventConsumer,
    private readonly sender: AttemptSender,
    private readonly backfills: BackfillWorker,
  ) {}

  /** Runs the pending migrations (serialised across copies) and fills in what only the app can. Before serving anything. */
  async migrate(): Promise<void> {
    await migrateDispatcherTables(this.pool, new Logger('Migrations'));
    await backfillSecretIds(this.subscriptions, this.box);
  }

  async start(): Promise<void> {
    await this.events.start();
    await this.subscriptionCache.start();
    await this.retention.start();
    this.scheduler.start();
    await this.consumer.start();
    this.backfills.start();
    // The sealing key's id (public, in every sealed value) tells an operator replacing the key which copies seal with the new one.
    this.logger.log({ msg: 'delivering webhooks', allowPrivateUrls: this.config.WEBHOOK_ALLOW_PRIVATE_URLS, sealingKeyId: this.box.sealingKeyId });
  }

  /** Gives back its backfill jobs, stops consuming, finishes and records the attempts in flight, closes connections (not the pools). */
  async stop(): Promise<void> {
    await this.backfills.stop();
    await this.consumer.stop();
    await this.scheduler.stop();
    await this.retention.stop();
    await this.subscriptionCache.stop();
    await this.events.stop();
    this.sender.close();
  }
}
