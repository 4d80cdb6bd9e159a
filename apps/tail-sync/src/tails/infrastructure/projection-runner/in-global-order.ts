import type { AllCheckpoint, EventStore, ReadAllResult, StoredEvent } from '@tailsync/event-store';

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
