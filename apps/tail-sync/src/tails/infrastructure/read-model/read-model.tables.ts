import type { AllCheckpoint, EventStore, ReadAllResult, StoredEvent } from '@tailsync/event-store';
import { inSchema } from '@tailsync/service-kit';

/** The read model's tables (made by tail-sync's migrations), as SQL names them. */
export interface ReadModelTables {
  /**
   * Names where the tables are in the names of the readers' locks: `rm_` (the name earlier
   * versions used), or `<schema>.rm_`, so readers of tables in other schemas (specs) never share a lock.
   */
  lockScope: string;
  tails: string;
  mappings: string;
  checkpoints: string;
  /** The one-row table naming the event store log the checkpoints belong to. */
  eventLog: string;
}

/** The tables in `schema`, or unqualified (the connection's `search_path`) when it is undefined. */
export function readModelTables(schema?: string): ReadModelTables {
  return {
    lockScope: schema ? `${schema}.rm_` : 'rm_',
    tails: inSchema(schema, 'rm_tails'),
    mappings: inSchema(schema, 'rm_tail_mappings'),
    checkpoints: inSchema(schema, 'rm_checkpoints'),
    eventLog: inSchema(schema, 'rm_event_log'),
  };
}

/** The statement storing a reader's checkpoint: `$1` its name, `$2` the checkpoint value. */
export function storeCheckpointSql(tables: ReadModelTables): string {
  return `insert into ${tables.checkpoints} (name, checkpoint, updated_at) values ($1, $2, now())
          on conflict (name) do update set checkpoint = excluded.checkpoint, updated_at = excluded.updated_at`;
}

/** Minimal logger, compatible with Nest's `Logger`. */
export interface ReadSideLogger {
  log?(message: string): void;
  warn(message: string): void;
  error(message: string, stack?: string): void;
}

export const consoleLogger: ReadSideLogger = {
  warn: (m) => console.warn(m),
  error: (m, s) => console.error(s ? `${m}\n${s}` : m),
};

/**
 * A batch of `readAll` in global order, with the checkpoint to store after it.
 *
 * Defensive against an adapter returning a batch out of order (the PostgreSQL adapter once sorted
 * positions as strings; fixed in 01d6596): the events are sorted with the store's own comparison,
 * and when the batch is not full (every visible event after the checkpoint was returned) the
 * checkpoint is the newest event's position.
 * With a correct adapter both are no-ops.
 */
export function inGlobalOrder(
  store: Pick<EventStore, 'isAtOrAfter'>,
  batch: ReadAllResult,
  limit: number,
): { events: StoredEvent[]; checkpoint: AllCheckpoint | null } {
  const events = batch.events;
  let ordered = true;
  for (let i = 1; i < events.length && ordered; i++) ordered = !store.isAtOrAfter({ value: events[i - 1].position }, { value: events[i].position });
  if (ordered) return { events, checkpoint: batch.checkpoint };
  const sorted = [...events].sort((a, b) =>
    a.position === b.position ? 0 : store.isAtOrAfter({ value: a.position }, { value: b.position }) ? 1 : -1,
  );
  const newest: AllCheckpoint = { value: sorted[sorted.length - 1].position };
  return { events: sorted, checkpoint: events.length < limit ? newest : batch.checkpoint };
}
