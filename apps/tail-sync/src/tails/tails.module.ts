import { DynamicModule, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PostgresEventStore, type EventStore } from '@tailsync/event-store';
import { Murmur2Partitioner, runMigrations, type KafkaConnection, type MigrationSet } from '@tailsync/service-kit';
import { Kafka, logLevel, Producer } from 'kafkajs';
import type { Pool } from 'pg';
import { CreateOrMapTailsHandler } from './application/commands/create-or-map-tails.command';
import { ChangeTailNumberHandler, DeactivateTailHandler, ReactivateTailHandler } from './application/commands/tail-state-commands';
import { GetTailHandler, GetTailHistoryHandler, ListTailsHandler } from './application/queries/tail-queries';
import { EVENT_STORE, PROJECTION_WAITER, TAIL_VIEWS } from './application/tail-ports';
import { CreateOrMapUseCase } from './application/create-or-map.use-case';
import { TailStateChanges } from './application/tail-state-changes';
import { TailStreams } from './application/tail-streams';
import { checkCheckpointsWithinLog } from './infrastructure/checkpoints-within-log';
import { PostgresEventLogBinding } from './infrastructure/event-log-binding';
import { readModelTables } from './infrastructure/read-model/read-model.tables';
import { PostgresTailIdAllocator } from './infrastructure/ids/postgres-tail-id-allocator';
import { TailsProjection } from './infrastructure/read-model/tails.projection';
import { RecentTailEvents } from './infrastructure/recent-tail-events';
import { TailsReadModel } from './infrastructure/read-model/tails.read-model';
import { PostgresReservations } from './infrastructure/reservations/postgres-reservations';
import { StreamReservations } from './infrastructure/reservations/stream-reservations';
import { TailEventsRelay } from './infrastructure/relay/tail-events.relay';
import { TailRequests } from './interface/tail-requests';

export interface TailsModuleOptions {
  pool: Pool;
  eventStore: EventStore;
  /** Run at start, before anything reads or writes the database (`tailSyncMigrations`). */
  migrations: MigrationSet[];
  kafka: KafkaConnection;
  clientId: string;
}

/** Migrates the database, then starts the background parts (projection catch-up, relay to Kafka); stops them first. */
class TailsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly options: TailsModuleOptions,
    private readonly projection: TailsProjection,
    private readonly relay: TailEventsRelay,
    private readonly producer: Producer,
    private readonly reservations: PostgresReservations | StreamReservations,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await runMigrations(this.options.pool, this.options.migrations, { logger: new Logger('Migrations') });
    const kind = this.options.eventStore instanceof PostgresEventStore ? 'postgres' : 'esdb';
    const binding = new PostgresEventLogBinding(this.options.pool, readModelTables());
    await checkCheckpointsWithinLog(this.options.eventStore, binding, kind, [
      { reader: 'projection', checkpoint: await this.projection.storedCheckpoint() },
      { reader: 'relay', checkpoint: await this.relay.storedCheckpoint() },
    ]);
    if (this.reservations instanceof StreamReservations) await this.reservations.alignClock();
    await this.producer.connect();
    this.projection.start();
    this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
    await this.projection.stop();
    await this.producer.disconnect();
    await this.options.eventStore.close();
  }
}

@Module({})
export class TailsModule {
  static forRoot(options: TailsModuleOptions): DynamicModule {
    const producer = new Kafka({ ...options.kafka, clientId: options.clientId, logLevel: logLevel.WARN }).producer({
      createPartitioner: Murmur2Partitioner,
      allowAutoTopicCreation: false,
    });
    const ids = new PostgresTailIdAllocator(options.pool);
    // In PostgreSQL, reservations are rows changed in the append's transaction; elsewhere, streams.
    const reservations =
      options.eventStore instanceof PostgresEventStore
        ? new PostgresReservations(options.pool, options.eventStore)
        : new StreamReservations(options.eventStore);
    const streams = new TailStreams(options.eventStore, reservations);
    // The projection and the relay want the same new events after every write: one read serves both.
    const recentEvents = new RecentTailEvents(options.eventStore);
    const projection = new TailsProjection(options.pool, options.eventStore, { recentEvents });
    const relay = new TailEventsRelay(options.pool, options.eventStore, producer, { recentEvents });
    return {
      module: TailsModule,
      exports: [TailRequests],
      providers: [
        TailRequests,
        { provide: EVENT_STORE, useValue: options.eventStore },
        { provide: PostgresTailIdAllocator, useValue: ids },
        { provide: CreateOrMapUseCase, useValue: new CreateOrMapUseCase(streams, ids) },
        { provide: TailStateChanges, useValue: new TailStateChanges(streams) },
        { provide: TailsProjection, useValue: projection },
        { provide: PROJECTION_WAITER, useExisting: TailsProjection },
        { provide: TailsReadModel, useValue: new TailsReadModel(options.pool) },
        { provide: TAIL_VIEWS, useExisting: TailsReadModel },
        { provide: TailEventsRelay, useValue: relay },
        { provide: TailsLifecycle, useValue: new TailsLifecycle(options, projection, relay, producer, reservations) },
        CreateOrMapTailsHandler,
        DeactivateTailHandler,
        ReactivateTailHandler,
        ChangeTailNumberHandler,
        GetTailHandler,
        ListTailsHandler,
        GetTailHistoryHandler,
      ],
    };
  }
}
