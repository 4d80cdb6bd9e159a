import type { PoolClient } from 'pg';
import type { EventTables } from './event-tables';

/** A stream's current version; `locked` when it has a row in `es_streams` (locked by {@link lockStreamVersions}). */
export interface StreamVersion {
  version: number;
  locked: boolean;
}

/**
 * Locks the rows of the streams that have one (`for update`, in byte order of ids, so concurrent
 * appends touching the same streams cannot deadlock) and reads the current versions of all that
 * exist. A stream created by `appendAsPartOf` has no row until its next append creates one: its
 * version is read from its newest event, and the row's insert (or, for a stream still new, the
 * events' `(stream_id, version)` key) is what catches a concurrent writer.
 */
export function lockStreamVersions(client: PoolClient, tables: EventTables, ids: string[]): Promise<Map<string, StreamVersion>> {
  return streamVersions(client, tables, ids, ' for update of s');
}

/** The current versions of the streams that exist, without locking them. */
export function readStreamVersions(client: PoolClient, tables: EventTables, ids: string[]): Promise<Map<string, StreamVersion>> {
  return streamVersions(client, tables, ids, '');
}

async function streamVersions(client: PoolClient, tables: EventTables, ids: string[], rowLock: string): Promise<Map<string, StreamVersion>> {
  const out = new Map<string, StreamVersion>();
  if (ids.length === 0) return out;
  const { rows } = await client.query<{ stream_id: string; version: number }>(
    `select s.stream_id, s.version from unnest($1::text[]) as k(id) join ${tables.streams} s on s.stream_id = k.id
        order by s.stream_id collate "C"${rowLock}`,
    [ids],
  );
  for (const r of rows) out.set(r.stream_id, { version: r.version, locked: true });
  const rowless = ids.filter((id) => !out.has(id));
  if (rowless.length > 0) {
    const { rows: newest } = await client.query<{ stream_id: string; version: number }>(
      `select k.id as stream_id, e.version from unnest($1::text[]) as k(id)
           cross join lateral (select version from ${tables.events} where stream_id = k.id order by version desc limit 1) e`,
      [rowless],
    );
    for (const r of newest) out.set(r.stream_id, { version: r.version, locked: false });
  }
  return out;
}
