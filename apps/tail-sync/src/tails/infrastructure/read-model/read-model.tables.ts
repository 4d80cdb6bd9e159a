import { createHash } from 'node:crypto';
import type { AllCheckpoint, EventStore, ReadAllResult, StoredEvent } from '@tailsync/event-store';
import type { PrimaryKeyMove } from '@tailsync/service-kit';

/** Prefix of the read-model tables (`<prefix>tails`, `<prefix>tail_mappings`, `<prefix>checkpoints`). */
export const DEFAULT_READ_MODEL_PREFIX = 'rm_';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,40}$/;

export interface ReadModelTables {
  prefix: string;
  tails: string;
  mappings: string;
  checkpoints: string;
}

export function readModelTables(prefix: string = DEFAULT_READ_MODEL_PREFIX): ReadModelTables {
  if (!IDENTIFIER.test(prefix)) throw new TypeError(`Invalid read-model table prefix '${prefix}'`);
  return {
    prefix,
    tails: `"${prefix}tails"`,
    mappings: `"${prefix}tail_mappings"`,
    checkpoints: `"${prefix}checkpoints"`,
  };
}

/** The statement storing a reader's checkpoint: `$1` its name, `$2` the checkpoint value. */
export function storeCheckpointSql(tables: ReadModelTables): string {
  return `insert into ${tables.checkpoints} (name, checkpoint, updated_at) values ($1, $2, now())
          on conflict (name) do update set checkpoint = excluded.checkpoint, updated_at = excluded.updated_at`;
}

/**
 * A 64-bit advisory lock key (as a decimal string) derived from a name, computed locally so taking
 * the lock needs no extra round trip.
 */
export function advisoryLockKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
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

/** The checkpoints table (shared by the projections and the relay; one row per name). */
export function checkpointsDdl(t: ReadModelTables): string[] {
  return [
    `create table if not exists ${t.checkpoints} (
       name       text        primary key,
       checkpoint text        not null,
       updated_at timestamptz not null default now()
     )`,
  ];
}

export function tailsDdl(t: ReadModelTables): string[] {
  const p = t.prefix;
  return [
    `create table if not exists ${t.tails} (
       tail_id             bigint      not null,
       domain              text        not null,
       tail_number         text        not null,
       tail_number_key     text        not null,
       registration_number text,
       icao_type_name      text,
       vendor_type_name    text,
       country_code        text,
       passenger_seating   int,
       status              text        not null check (status in ('active', 'inactive')),
       version             int         not null,
       created_at          timestamptz not null,
       updated_at          timestamptz not null,
       constraint "${p}tails_pkey" primary key (domain, tail_id)
     )`,
    `create index if not exists "${p}tails_domain_number_idx" on ${t.tails} (domain, tail_number_key)`,
    `create table if not exists ${t.mappings} (
       domain        text   not null,
       source        text   not null,
       mapped_id     text   not null,
       tail_id       bigint not null,
       added_version int    not null,
       primary key (domain, source, mapped_id)
     )`,
    `create index if not exists "${p}tail_mappings_tail_id_idx" on ${t.mappings} (tail_id)`,
  ];
}

/**
 * `<prefix>tails` made before its key was `(domain, tail_id)` had it on `tail_id`, with a second
 * index on `(domain, tail_id)`: every query names the domain, so one index serves both.
 */
export function tailsKeyMove(t: ReadModelTables): PrimaryKeyMove {
  return {
    table: t.tails,
    constraint: `${t.prefix}tails_pkey`,
    from: ['tail_id'],
    to: ['domain', 'tail_id'],
    redundantIndex: `"${t.prefix}tails_domain_tail_id_idx"`,
  };
}

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
