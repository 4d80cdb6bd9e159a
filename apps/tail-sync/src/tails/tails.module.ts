import { Module } from '@nestjs/common';
import { PostgresEventStore, type EventStore } from '@tailsync/event-store';
import { INSTANCE_ID, kafkaConnection, PG_POOL, type Sender } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { TailSyncConfig } from '../config/tail-sync.config';
import { ChangeTailNumberHandler, DeactivateTailHandler, ReactivateTailHandler } from './commands/change-tail/change-tail.commands';
import { ChangeTailGrpc } from './commands/change-tail/change-tail.grpc';
import { ChangeTailUseCase } from './commands/change-tail/change-tail.use-case';
import { CreateOrMapTailsHandler } from './commands/create-or-map/create-or-map.command';
import { CreateOrMapGrpc } from './commands/create-or-map/create-or-map.grpc';
import { CreateOrMapUseCase } from './commands/create-or-map/create-or-map.use-case';
import { GetTailHandler, GetTailHistoryHandler, ListTailsHandler } from './application/queries/tail-queries';
import type { TailIdAllocator } from './application/tail-id-allocator';
import { EVENT_STORE, PROJECTION_WAITER, RESERVATION_STORE, TAIL_ID_ALLOCATOR, TAIL_VIEWS } from './application/tail-ports';
import { TailStreams } from './application/tail-streams';
import { PostgresTailIdAllocator } from './infrastructure/ids/postgres-tail-id-allocator';
import { TailsProjection } from './infrastructure/read-model/tails.projection';
import { RecentTailEvents } from './infrastructure/recent-tail-events';
import { TailsReadModel } from './infrastructure/read-model/tails.read-model';
import { CoalescedTailViews } from './infrastructure/read-model/coalesced-tail-views';
import { PostgresReservations } from './infrastructure/reservations/postgres-reservations';
import { StreamReservations } from './infrastructure/reservations/stream-reservations';
import { RELAY_PRODUCER, relayProducer } from './infrastructure/relay/relay-producer';
import { TailEventsRelay } from './infrastructure/relay/tail-events.relay';
import { TailQueriesGrpc } from './interface/tail-queries.grpc';
import { TailsLifecycle } from './tails.lifecycle';

/**
 * Tails: their gRPC methods, each beside its command (`commands/<command>/`) or with the queries
 * (`interface/`); the commands and queries on the `@nestjs/cqrs` buses; the ports they name bound
 * to the adapters; the background readers of the event log. The pool, the event store, the
 * migrations and `ServedCalls` come from the process's core module (app.module.ts).
 */
@Module({
  controllers: [CreateOrMapGrpc, ChangeTailGrpc, TailQueriesGrpc],
  providers: [
    CreateOrMapTailsHandler,
    DeactivateTailHandler,
    ReactivateTailHandler,
    ChangeTailNumberHandler,
    GetTailHandler,
    ListTailsHandler,
    GetTailHistoryHandler,
    TailStreams,
    { provide: CreateOrMapUseCase, useFactory: (streams: TailStreams, ids: TailIdAllocator) => new CreateOrMapUseCase(streams, ids), inject: [TailStreams, TAIL_ID_ALLOCATOR] },
    { provide: ChangeTailUseCase, useFactory: (streams: TailStreams) => new ChangeTailUseCase(streams), inject: [TailStreams] },
    { provide: TAIL_ID_ALLOCATOR, useFactory: (pool: Pool) => new PostgresTailIdAllocator(pool), inject: [PG_POOL] },
    {
      provide: RESERVATION_STORE,
      // In PostgreSQL, reservations are rows changed in the append's transaction; elsewhere, streams.
      useFactory: (pool: Pool, store: EventStore) => (store instanceof PostgresEventStore ? new PostgresReservations(pool, store) : new StreamReservations(store)),
      inject: [PG_POOL, EVENT_STORE],
    },
    { provide: TailsReadModel, useFactory: (pool: Pool) => new TailsReadModel(pool), inject: [PG_POOL] },
    // Single-tail reads that arrive together under load share one statement (CoalescedTailViews).
    { provide: TAIL_VIEWS, useFactory: (readModel: TailsReadModel) => new CoalescedTailViews(readModel), inject: [TailsReadModel] },
    // The projection and the relay want the same new events after every write: one read serves both.
    { provide: RecentTailEvents, useFactory: (store: EventStore) => new RecentTailEvents(store), inject: [EVENT_STORE] },
    {
      provide: TailsProjection,
      useFactory: (pool: Pool, store: EventStore, recentEvents: RecentTailEvents) => new TailsProjection(pool, store, { recentEvents }),
      inject: [PG_POOL, EVENT_STORE, RecentTailEvents],
    },
    { provide: PROJECTION_WAITER, useExisting: TailsProjection },
    {
      provide: RELAY_PRODUCER,
      useFactory: (config: TailSyncConfig, instanceId: string) => relayProducer(kafkaConnection(config), `tail-sync-${instanceId}`),
      inject: [TailSyncConfig, INSTANCE_ID],
    },
    {
      provide: TailEventsRelay,
      useFactory: (pool: Pool, store: EventStore, producer: Sender, recentEvents: RecentTailEvents) => new TailEventsRelay(pool, store, producer, { recentEvents }),
      inject: [PG_POOL, EVENT_STORE, RELAY_PRODUCER, RecentTailEvents],
    },
    TailsLifecycle,
  ],
})
export class TailsModule {}
