import type { Pool } from 'pg';
import { EsdbEventStore, EsdbEventStoreOptions } from './esdb/esdb-event-store';
import type { EventStore } from './event-store.port';
import { PostgresEventStore, PostgresEventStoreOptions } from './postgres/postgres-event-store';

export * from './event-store.port';
export { newEventId } from './event-id';
export { appendStreamByStream, STREAM_WRITE_CONCURRENCY } from './stream-by-stream-append';
export type { StreamWriteResult } from './stream-by-stream-append';
export { PostgresEventStore } from './postgres/postgres-event-store';
export type { PostgresEventStoreOptions } from './postgres/postgres-event-store';
export { EVENT_STORE_MIGRATIONS } from './postgres/event-store-migrations';
export { EsdbEventStore } from './esdb/esdb-event-store';
export type { EsdbEventStoreOptions } from './esdb/esdb-event-store';

export type EventStoreConfig =
  | ({ kind: 'postgres'; pool: Pool } & PostgresEventStoreOptions)
  | ({ kind: 'esdb'; connectionString: string } & EsdbEventStoreOptions);

/**
 * Builds the configured adapter. The PostgreSQL adapter's tables are made by
 * `EVENT_STORE_MIGRATIONS` (run them first); the pool stays owned by the caller.
 */
export function createEventStore(config: EventStoreConfig): EventStore {
  switch (config.kind) {
    case 'postgres': {
      const { kind: _kind, pool, ...options } = config;
      return new PostgresEventStore(pool, options);
    }
    case 'esdb': {
      const { kind: _kind, connectionString, ...options } = config;
      return new EsdbEventStore(connectionString, options);
    }
    default:
      throw new TypeError(`Unknown event store kind '${(config as { kind?: unknown }).kind}'`);
  }
}
