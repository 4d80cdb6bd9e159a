import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import {
  brokerList, createPool, INSTANCE_ID, KafkaReadiness, loggingModule, OpsModule, PG_POOL, PoolLifecycle, PostgresReadiness,
} from '@tailsync/service-kit';
import { TailSyncConfig } from './config/tail-sync.config';
import { PingMessages } from './system/ping.messages';

/** The tail-sync process, wired for one configuration. */
export function appModule(config: TailSyncConfig, instanceId: string) {
  const pool = createPool(config.DATABASE_URL);

  @Module({
    imports: [
      loggingModule('tail-sync', config.LOG_LEVEL),
      CqrsModule.forRoot(),
      OpsModule.forRoot([new KafkaReadiness(brokerList(config)), new PostgresReadiness(pool)]),
    ],
    controllers: [PingMessages],
    providers: [
      { provide: TailSyncConfig, useValue: config },
      { provide: INSTANCE_ID, useValue: instanceId },
      { provide: PG_POOL, useValue: pool },
      { provide: PoolLifecycle, useValue: new PoolLifecycle(pool) },
    ],
  })
  class TailSyncModule {}
  return TailSyncModule;
}
