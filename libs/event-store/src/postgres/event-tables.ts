/** Where the adapter's two tables are, and the names of the constraints its errors are recognised by. */
export interface EventTables {
  /** Prefix and schema the tables were named from (they also name the migration lock). */
  prefix: string;
  schema: string | undefined;
  /** `<prefix>events`, quoted and qualified as SQL names it. */
  events: string;
  /** `<prefix>streams`, as SQL names it. */
  streams: string;
  /** Primary key of an event (its global position). */
  eventsKey: string;
  /** Unique key of an event id. */
  eventIdKey: string;
  /** Primary key of a stream row. */
  streamsKey: string;
  /** Unique key of (stream, version) of an event. */
  streamVersionKey: string;
  qualify(name: string): string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** The tables `<prefix>events` and `<prefix>streams` in `schema` (unqualified, i.e. the `search_path`, when undefined). */
export function eventTables(prefix: string, schema: string | undefined): EventTables {
  if (!IDENTIFIER.test(prefix)) throw new TypeError(`Invalid table prefix '${prefix}'`);
  if (schema !== undefined && !IDENTIFIER.test(schema)) throw new TypeError(`Invalid schema '${schema}'`);
  const qualify = (name: string) => (schema ? `"${schema}"."${name}"` : `"${name}"`);
  return {
    prefix,
    schema,
    events: qualify(`${prefix}events`),
    streams: qualify(`${prefix}streams`),
    eventsKey: `${prefix}events_pkey`,
    eventIdKey: `${prefix}events_event_id_key`,
    streamsKey: `${prefix}streams_pkey`,
    streamVersionKey: `${prefix}events_stream_version_key`,
    qualify,
  };
}
