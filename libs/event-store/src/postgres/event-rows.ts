import type { StoredEvent } from '../event-store.port';

/** An event as the adapter selects it (`tx` and `position` as text: 64-bit integers). */
export interface EventRow {
  stream_id: string;
  version: number;
  event_id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown> | null;
  recorded_at: Date;
  tx: string;
  position: string;
}

export const EVENT_COLUMNS =
  'stream_id, version, event_id::text as event_id, type, data, metadata, recorded_at, tx::text as tx, position::text as position';

/** A row `readAll` returns without its content, which `AppendedEvents` keeps. */
export interface KeptEventRow {
  stream_id: null;
  event_id: string;
  tx: string;
  position: string;
}

/** {@link EVENT_COLUMNS}, with all but the ids null where the boolean column `e.kept` is true. */
export const KEPT_OR_EVENT_COLUMNS = (() => {
  const unlessKept = (column: string, as: string) => `case when e.kept then null else ${column} end as ${as}`;
  return [
    unlessKept('e.stream_id', 'stream_id'),
    unlessKept('e.version', 'version'),
    'e.event_id::text as event_id',
    unlessKept('e.type', 'type'),
    unlessKept('e.data', 'data'),
    unlessKept('e.metadata', 'metadata'),
    unlessKept('e.recorded_at', 'recorded_at'),
    'e.tx::text as tx',
    'e.position::text as position',
  ].join(', ');
})();

export function toStoredEvent(r: EventRow): StoredEvent {
  return {
    streamId: r.stream_id,
    version: r.version,
    eventId: r.event_id,
    type: r.type,
    data: r.data,
    metadata: r.metadata ?? {},
    recordedAt: r.recorded_at,
    position: `${r.tx}:${r.position}`,
  };
}
