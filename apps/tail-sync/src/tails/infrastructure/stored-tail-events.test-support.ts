/** Test support (imported by specs only): domain events as the event store returns them. */
import type { StoredEvent } from '@tailsync/event-store';
import { tailStreamId } from '../domain/stream-ids';
import type { TailEvent } from '../domain/tail.events';
import { T1, uuid } from '../domain/tail.test-fixtures';

let position = 0;

/** `events` stored as versions `from`, `from + 1`, … of their tail's stream, with ascending positions. */
export function storedTailEvents(events: (TailEvent | { type: string; data: Record<string, unknown> & { tailId: number } })[], from = 1): StoredEvent[] {
  return events.map((e, i) => ({
    eventId: String(e.data.eventId ?? `e-${++position}`),
    type: e.type,
    data: { ...e.data },
    metadata: { domain: e.data.domain },
    streamId: tailStreamId(e.data.tailId),
    version: from + i,
    position: String(++position),
    recordedAt: new Date('2025-01-01T00:00:00.000Z'),
  }));
}

const base = (tailId: number, actor = 'client-a') => ({ eventId: uuid(), domain: 'acme', tailId, actor, occurredAt: T1 });

export const mappingAdded = (tailId: number, source: string, mappedId: string): TailEvent => ({
  type: 'MappingAdded',
  data: { ...base(tailId, source), source, mappedId },
});
export const deactivated = (tailId: number): TailEvent => ({ type: 'TailDeactivated', data: base(tailId) });
export const renumbered = (tailId: number, fromTailNumber: string, toTailNumber: string): TailEvent => ({
  type: 'TailRenumbered',
  data: { ...base(tailId), fromTailNumber, toTailNumber },
});
