import { Module } from '@nestjs/common';
import { INSTANCE_ID, kafkaConnection, PG_POOL } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { CallbackKeys } from './callback-keys';
import { SubscriptionCache } from './subscription-cache';
import { SubscriptionEventsPublisher } from './subscription-events.publisher';
import { SubscriptionState } from './subscription-state';
import { SubscriptionStore } from './subscription.store';
import { UnsealedSecrets } from './unsealed-secrets';
import { SecretBox } from '../sealing/secret-box';

/** Subscriptions: stored, cached in memory, their changes published; the keys their callbacks are signed with. */
@Module({
  providers: [
    { provide: SubscriptionStore, inject: [PG_POOL], useFactory: (pool: Pool) => new SubscriptionStore(pool) },
    {
      provide: SubscriptionCache,
      inject: [SubscriptionStore, PG_POOL],
      useFactory: (store: SubscriptionStore, pool: Pool) =>
        new SubscriptionCache(store, {
          connectionString: pool.options.connectionString,
          options: pool.options.options,
          application_name: 'webhook-dispatcher-subscription-notices',
          connectionTimeoutMillis: 5_000,
        }),
    },
    { provide: SecretBox, inject: [WebhookDispatcherConfig], useFactory: (config: WebhookDispatcherConfig) => new SecretBox(config.WEBHOOK_SECRET_KEY) },
    { provide: CallbackKeys, inject: [SecretBox], useFactory: (box: SecretBox) => new CallbackKeys(new UnsealedSecrets(box)) },
    {
      provide: SubscriptionEventsPublisher,
      inject: [PG_POOL, WebhookDispatcherConfig, INSTANCE_ID],
      useFactory: (pool: Pool, config: WebhookDispatcherConfig, instanceId: string) =>
        new SubscriptionEventsPublisher(pool, { kafka: kafkaConnection(config), clientId: `webhook-dispatcher-subscription-events-${instanceId}` }),
    },
    SubscriptionState,
  ],
  exports: [SubscriptionStore, SubscriptionCache, SecretBox, CallbackKeys, SubscriptionEventsPublisher, SubscriptionState],
})
export class SubscriptionsModule {}
