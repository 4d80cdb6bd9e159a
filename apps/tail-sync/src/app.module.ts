import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import {
  kafkaConnection, CallerTokenVerifier, createPool, INSTANCE_ID, KafkaReadiness, loggingModule, OpsModule, PG_POOL, PoolLifecycle, PostgresReadiness, ServedCalls,
} from '@tailsync/service-kit';
import { TailSyncConfig } from './config/tail-sync.config';
import { TailSyncGrpc } from './tail-sync.grpc';
import { TailsModule } from './tails/tails.module';
import { AdminModule } from './admin/admin.module';
import { tailSyncMigrations } from './tail-sync-migrations';
import { createEventStore, EventStore } from '@tailsync/event-store';
import { ReadinessCheck } from '@tailsync/service-kit';

/** The tail-sync process, wired for one configuration. */
export function appModule(config: TailSyncConfig, instanceId: string) {
  const pool = createPool(config.DATABASE_URL, 30);
  const eventStore =
    config.EVENT_STORE === 'esdb'
      ? createEventStore({ kind: 'esdb', connectionString: config.EVENTSTORE_CONNECTION_STRING as string })
      : createEventStore({ kind: 'postgres', pool });

  @Module({
    imports: [
      loggingModule('tail-sync', config.LOG_LEVEL),
      CqrsModule.forRoot(),
      OpsModule.forRoot([new KafkaReadiness(kafkaConnection(config)), new PostgresReadiness(pool), eventStoreReadiness(eventStore)]),
      TailsModule.forRoot({ pool, eventStore, migrations: tailSyncMigrations(config.EVENT_STORE), kafka: kafkaConnection(config), clientId: `tail-sync-${instanceId}` }),
      AdminModule.forRoot(pool, eventStore),
    ],
    controllers: [TailSyncGrpc],
    providers: [
      { provide: ServedCalls, useValue: new ServedCalls(new CallerTokenVerifier(config.SERVICE_VERIFY_KEY, 'tail-sync')) },
      { provide: TailSyncConfig, useValue: config },
      { provide: INSTANCE_ID, useValue: instanceId },
      { provide: PG_POOL, useValue: pool },
      { provide: PoolLifecycle, useValue: new PoolLifecycle(pool) },
    ],
  })
  class TailSyncModule {}
  return TailSyncModule;
}

const eventStoreReadiness = (store: EventStore): ReadinessCheck => ({ name: 'event-store', check: () => store.ping() });
