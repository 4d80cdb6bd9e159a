import { DuplicateEventIdError, type StoredEvent, type StreamWrite } from '../event-store.port';
import type { StreamWriteResult } from '../stream-by-stream-append';

/**
 * The write's result if its events are stored at the place it expected (same ids, in order),
 * `null` if none of them is there; an id there with another type is a {@link DuplicateEventIdError}.
 * EventStoreDB compares only the ids of a write it takes for a retry: this checks the rest.
 */
export async function storedAtSamePlace(
  w: StreamWrite,
  readStream: (streamId: string, fromVersion: number) => Promise<StoredEvent[]>,
): Promise<StreamWriteResult | null> {
  if (w.expectedVersion === 'any') return null;
  const stored = await readStream(w.streamId, w.expectedVersion);
  const slice = stored.slice(0, w.events.length);
  const sameIds = slice.length === w.events.length && slice.every((s, i) => s.eventId.toLowerCase() === w.events[i].eventId.toLowerCase());
  if (!sameIds) return null;
  const other = slice.findIndex((s, i) => s.type !== w.events[i].type);
  if (other >= 0) {
    throw new DuplicateEventIdError(w.events[other].eventId, w.streamId, `stored as '${slice[other].type}', not '${w.events[other].type}'`);
  }
  return { version: w.expectedVersion + w.events.length, checkpoint: { value: slice[slice.length - 1].position } };
}
