import type { AllStreamRecordedEvent, RecordedEvent } from '@eventstore/db-client';
import type { StoredEvent } from '../event-store.port';
import { positionValue } from './esdb-positions';

/** EventStoreDB's own events (stream or type starting with `$`), never returned by `readAll`. */
export function isSystem(e: { streamId: string; type: string }): boolean {
  return e.streamId.startsWith('$') || e.type.startsWith('$');
}

function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) ? (v as Record<string, unknown>) : {};
}

/** A recorded event as the port's stored event (versions count from 1, revisions from 0). */
export function toStoredEvent(e: RecordedEvent | AllStreamRecordedEvent): StoredEvent {
  return {
    streamId: e.streamId,
    version: Number(e.revision) + 1,
    eventId: e.id,
    type: e.type,
    data: asObject(e.data),
    metadata: asObject(e.metadata),
    position: e.position ? positionValue(e.position) : '',
    recordedAt: e.created,
  };
}
