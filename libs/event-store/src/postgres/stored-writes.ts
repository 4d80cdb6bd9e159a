import type { PoolClient } from 'pg';
import { comparePairs, ORIGIN_VALUE } from '../checkpoint';
import { AppendResult, DuplicateEventIdError, StreamWrite } from '../event-store.port';
import type { EventTables } from './event-tables';
import { readStreamVersions } from './stream-versions';

/** What a conflicting call had already stored: a retried command. */
export interface StoredWrites {
  /** The versions (and the checkpoint) of the writes whose events are all stored at their place. */
  stored: AppendResult;
  /** Writes none of whose events are stored (and writes without events): still to append. */
  pending: StreamWrite[];
}

function maxCheckpoint(values: string[]): string {
  return values.reduce((acc, v) => (comparePairs(v, acc) > 0 ? v : acc), ORIGIN_VALUE);
}

/**
 * After a version conflict or an event-id unique violation: which writes of the call are already
 * stored at the same place (same stream, consecutive versions from the expected one, same types)?
 * `null` when none is (a real conflict). Writes with only part of their events stored, or stored
 * elsewhere, throw {@link DuplicateEventIdError}. When nothing with events is pending, writes without
 * events report their stream's current version.
 */
export async function findStoredWrites(client: PoolClient, tables: EventTables, writes: StreamWrite[]): Promise<StoredWrites | null> {
  const allIds = writes.flatMap((w) => w.events.map((e) => e.eventId.toLowerCase()));
  const { rows } = await client.query<{ event_id: string; stream_id: string; version: number; type: string; tx: string; position: string }>(
    `select event_id::text as event_id, stream_id, version, type, tx::text as tx, position::text as position
         from ${tables.events} where event_id = any($1::uuid[])`,
    [allIds],
  );
  const found = new Map(rows.map((r) => [r.event_id, r]));

  const storedVersions: Record<string, number> = {};
  const storedCheckpoints: string[] = [];
  const pending: StreamWrite[] = [];
  for (const w of writes) {
    const matches = w.events.map((e) => found.get(e.eventId.toLowerCase()));
    if (w.events.length === 0 || matches.every((m) => m === undefined)) {
      pending.push(w);
      continue;
    }
    const base = w.expectedVersion === 'any' ? (matches[0]?.version ?? 1) - 1 : w.expectedVersion;
    w.events.forEach((e, i) => {
      const m = matches[i];
      const id = e.eventId.toLowerCase();
      if (!m) throw new DuplicateEventIdError(id, w.streamId, 'only part of the events of this write are stored');
      if (m.stream_id !== w.streamId) throw new DuplicateEventIdError(id, w.streamId, `stored in stream '${m.stream_id}'`);
      if (m.version !== base + 1 + i) {
        throw new DuplicateEventIdError(id, w.streamId, `stored at version ${m.version}, not ${base + 1 + i}`);
      }
      if (m.type !== e.type) throw new DuplicateEventIdError(id, w.streamId, `stored with type '${m.type}', not '${e.type}'`);
      storedCheckpoints.push(`${m.tx}:${m.position}`);
    });
    storedVersions[w.streamId] = base + w.events.length;
  }

  if (Object.keys(storedVersions).length === 0) return null;
  const checkpoint = { value: maxCheckpoint(storedCheckpoints) };
  if (pending.some((w) => w.events.length > 0)) return { stored: { streams: storedVersions, checkpoint }, pending };
  // Everything that had events is stored. Writes without events only checked a version: report
  // the stream's current version.
  const streams = { ...storedVersions };
  const current = await readStreamVersions(client, tables, pending.map((w) => w.streamId));
  for (const w of pending) streams[w.streamId] = current.get(w.streamId)?.version ?? 0;
  return { stored: { streams, checkpoint }, pending: [] };
}

/** The result of a call whose writes were stored in two rounds. */
export function mergeResults(first: AppendResult, second: AppendResult): AppendResult {
  return {
    streams: { ...first.streams, ...second.streams },
    checkpoint: { value: maxCheckpoint([first.checkpoint.value, second.checkpoint.value]) },
  };
}
