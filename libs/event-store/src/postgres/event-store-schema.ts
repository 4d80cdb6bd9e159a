import type { Pool } from 'pg';
import { movePrimaryKey } from '@tailsync/service-kit';
import type { EventTables } from './event-tables';

/** Creates schema, tables and index if missing. Serialised across processes by an advisory lock. */
export async function createEventTables(pool: Pool, tables: EventTables): Promise<void> {
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`tailsync.event-store:${tables.schema ?? ''}:${tables.prefix}`]);
    if (tables.schema) await client.query(`create schema if not exists "${tables.schema}"`);
    await client.query(`
        create table if not exists ${tables.events} (
          position    bigserial   not null,
          tx          xid8        not null default pg_current_xact_id(),
          stream_id   text        not null,
          version     int         not null check (version > 0),
          event_id    uuid        not null,
          type        text        not null,
          data        jsonb       not null,
          metadata    jsonb       not null default '{}'::jsonb,
          recorded_at timestamptz not null default now(),
          constraint "${tables.eventsKey}" primary key (tx, position),
          constraint "${tables.eventIdKey}" unique (event_id),
          constraint "${tables.streamVersionKey}" unique (stream_id, version)
        )`);
    // Tables created before the primary key became `(tx, position)` had it on `position`, with a
    // second index on `(tx, position)` for `readAll`: one index entry more per event.
    await movePrimaryKey(client, {
      table: tables.events,
      constraint: tables.eventsKey,
      from: ['position'],
      to: ['tx', 'position'],
      redundantIndex: tables.qualify(`${tables.prefix}events_tx_position_idx`),
    });
    await client.query(`
        create table if not exists ${tables.streams} (
          stream_id text not null,
          version   int  not null check (version >= 0),
          constraint "${tables.streamsKey}" primary key (stream_id)
        )`);
    await client.query('commit');
  } catch (err) {
    failed = true;
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release(failed ? true : undefined);
  }
}
