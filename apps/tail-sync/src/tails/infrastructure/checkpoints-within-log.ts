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
 * Checks at start that the log can be read, and that every reader's stored checkpoint lies within
 * it. A store tail-sync may not read (EventStoreDB: reading `$all` needs an admin or an ACL granting
 * it) stops the start with the store's reason; a checkpoint beyond the log would be read by the
 * store as "nothing new", silently, for ever, so the process refuses to start then too.
 */
export async function checkCheckpointsWithinLog(
  store: Pick<EventStore, 'headCheckpoint' | 'isAtOrAfter'>,
  readers: { reader: string; checkpoint: AllCheckpoint | null }[],
): Promise<void> {
  const head = await store.headCheckpoint();
  for (const { reader, checkpoint } of readers) {
    if (checkpoint !== null && !store.isAtOrAfter(head, checkpoint)) throw new CheckpointBeyondLog(reader, checkpoint, head);
  }
}
