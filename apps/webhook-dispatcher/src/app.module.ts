import { Module } from '@nestjs/common';
import {
  brokerList, createPool, INSTANCE_ID, KafkaReadiness, loggingModule, OpsModule, PG_POOL, PoolLifecycle, PostgresReadiness,
} from '@tailsync/service-kit';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { PingMessages } from './system/ping.messages';

/** The webhook-dispatcher process, wired for one configuration. */
export function appModule(config: WebhookDispatcherConfig, instanceId: string) {
  const pool = createPool(config.DATABASE_URL);

  @Module({
    imports: [
      loggingModule('webhook-dispatcher', config.LOG_LEVEL),
      OpsModule.forRoot([new KafkaReadiness(brokerList(config)), new PostgresReadiness(pool)]),
    ],
    controllers: [PingMessages],
    providers: [
      { provide: WebhookDispatcherConfig, useValue: config },
      { provide: INSTANCE_ID, useValue: instanceId },
      { provide: PG_POOL, useValue: pool },
      { provide: PoolLifecycle, useValue: new PoolLifecycle(pool) },
    ],
  })
  class WebhookDispatcherModule {}
  return WebhookDispatcherModule;
}
