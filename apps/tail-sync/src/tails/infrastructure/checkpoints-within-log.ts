import type { AllCheckpoint, EventStore } from '@tailsync/event-store';

/** A reader's stored checkpoint lies beyond the newest event of the log: the store was reset or replaced. */
export class CheckpointBeyondLog extends Error {
  constructor(reader: string, checkpoint: AllCheckpoint, head: AllCheckpoint | null) {
    super(
      `The ${reader}'s checkpoint ${checkpoint.value} lies beyond the end of the event store's log ` +
        `(${head ? `newest event at ${head.value}` : 'empty'}): the store was reset or replaced, and reading on from there ` +
        `would find nothing new for ever. Point tail-sync at the store it was using; or, to start over on this one, ` +
        `delete the reader's row of the checkpoints table and run rebuild-projections.`,
    );
    this.name = 'CheckpointBeyondLog';
  }
}

/**
 * Checks at start that every reader's stored checkpoint lies within the log. A checkpoint beyond
 * it is read by the store as "nothing new", silently, for ever; so the process refuses to start.
 */
export async function checkCheckpointsWithinLog(
  store: Pick<EventStore, 'headCheckpoint' | 'isAtOrAfter'>,
  readers: { reader: string; checkpoint: AllCheckpoint | null }[],
): Promise<void> {
  const stored = readers.filter((r): r is { reader: string; checkpoint: AllCheckpoint } => r.checkpoint !== null);
  if (stored.length === 0) return;
  const head = await store.headCheckpoint();
  for (const { reader, checkpoint } of stored) {
    if (!store.isAtOrAfter(head, checkpoint)) throw new CheckpointBeyondLog(reader, checkpoint, head);
  }
}
