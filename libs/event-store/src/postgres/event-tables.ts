import { inSchema } from '@tailsync/service-kit';

/**
 * Where the adapter's two tables are, and the names of the constraints its errors are recognised
 * by. The tables are made by the event store's migrations (`libs/event-store/migrations`).
 */
export interface EventTables {
  /** `es_events`, quoted and qualified as SQL names it. */
  events: string;
  /** `es_streams`, as SQL names it. */
  streams: string;
  /** Unique key of an event id. */
  eventIdKey: string;
  /** Primary key of a stream row. */
  streamsKey: string;
  /** Unique key of (stream, version) of an event. */
  streamVersionKey: string;
}

/** The tables in `schema`, or unqualified (the connection's `search_path`) when it is undefined. */
export function eventTables(schema: string | undefined): EventTables {
  return {
    events: inSchema(schema, 'es_events'),
    streams: inSchema(schema, 'es_streams'),
    eventIdKey: 'es_events_event_id_key',
    streamsKey: 'es_streams_pkey',
    streamVersionKey: 'es_events_stream_version_key',
  };
}
