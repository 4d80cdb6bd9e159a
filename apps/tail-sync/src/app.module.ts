import { Global, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { createEventStore, type EventStore } from '@tailsync/event-store';
import {
  createPool, INSTANCE_ID, kafkaConnection, KafkaReadiness, loggingModule, OpsModule, PG_POOL, PoolLifecycle, PostgresReadiness,
  type ReadinessCheck, ServedCalls, servedCalls,
} from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { TailSyncConfig } from './config/tail-sync.config';
import { TailSyncGrpc } from './tail-sync.grpc';
import { TAIL_SYNC_ROLES } from './tail-sync.roles';
import { TailsModule } from './tails/tails.module';
import { EVENT_STORE } from './tails/application/tail-ports';
import { STARTUP_MIGRATIONS } from './tails/tails.lifecycle';
import { AdminModule } from './admin/admin.module';
import { tailSyncMigrations } from './tail-sync-migrations';

/** The tail-sync process, wired for one configuration. */
export function appModule(config: TailSyncConfig, instanceId: string) {
  /**
   * What every feature module of tail-sync uses: settings, its database, the event store, the
   * verification of the gateway's calls (`ServedCalls`). Global,
   * so Nest closes the pool after every module that uses it has stopped.
   */
  @Global()
  @Module({
    providers: [
      { provide: TailSyncConfig, useValue: config },
      { provide: INSTANCE_ID, useValue: instanceId },
      { provide: PG_POOL, useFactory: (settings: TailSyncConfig) => createPool(settings.DATABASE_URL, 30), inject: [TailSyncConfig] },
      { provide: EVENT_STORE, useFactory: eventStoreOf, inject: [TailSyncConfig, PG_POOL] },
      { provide: STARTUP_MIGRATIONS, useFactory: (settings: TailSyncConfig) => tailSyncMigrations(settings.EVENT_STORE), inject: [TailSyncConfig] },
      { provide: PoolLifecycle, useFactory: (pool: Pool) => new PoolLifecycle(pool), inject: [PG_POOL] },
      { provide: ServedCalls, useFactory: (settings: TailSyncConfig) => servedCalls(settings, { audience: 'tail-sync', service: 'TailSync', roles: TAIL_SYNC_ROLES }), inject: [TailSyncConfig] },
    ],
    exports: [TailSyncConfig, INSTANCE_ID, PG_POOL, EVENT_STORE, STARTUP_MIGRATIONS, ServedCalls],
  })
  class TailSyncCoreModule {}

  @Module({
    imports: [
      TailSyncCoreModule,
      loggingModule('tail-sync', config.LOG_LEVEL),
      CqrsModule.forRoot(),
      OpsModule.forRoot({ inject: [TailSyncConfig, PG_POOL, EVENT_STORE], useFactory: readinessChecks }),
      TailsModule,
      AdminModule,
    ],
    controllers: [TailSyncGrpc],
  })
  class TailSyncModule {}
  return TailSyncModule;
}

function eventStoreOf(config: TailSyncConfig, pool: Pool): EventStore {
  return config.EVENT_STORE === 'esdb'
    ? createEventStore({ kind: 'esdb', connectionString: config.EVENTSTORE_CONNECTION_STRING as string })
    : createEventStore({ kind: 'postgres', pool });
}

function readinessChecks(config: TailSyncConfig, pool: Pool, store: EventStore): ReadinessCheck[] {
  return [new KafkaReadiness(kafkaConnection(config)), new PostgresReadiness(pool), { name: 'event-store', check: () => store.ping() }];
}
