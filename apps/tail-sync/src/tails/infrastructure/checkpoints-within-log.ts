import type { AllCheckpoint, EventStore } from '@tailsync/event-store';
import type { EventLogBinding } from './event-log-binding';
import { eventLogIdentity } from './event-log-identity';

const START_OVER =
  'to start over on this one, delete the rows of rm_checkpoints and rm_event_log and run rebuild-projections ' +
  '(the relay then publishes every tail event of this store again).';

/** A reader's stored checkpoint lies beyond the newest event of the log: the store was reset or replaced. */
export class CheckpointBeyondLog extends Error {
  constructor(reader: string, checkpoint: AllCheckpoint, head: AllCheckpoint | null) {
    super(
      `The ${reader}'s checkpoint ${checkpoint.value} lies beyond the end of the event store's log ` +
        `(${head ? `newest event at ${head.value}` : 'empty'}): the store was reset or replaced, and reading on from there ` +
        `would find nothing new for ever. Point tail-sync at the store it was using; or, ${START_OVER}`,
    );
    this.name = 'CheckpointBeyondLog';
  }
}

/** The readers' checkpoints are positions in another log than the store tail-sync now uses. */
export class CheckpointsOfAnotherLog extends Error {
  constructor(bound: string, current: string) {
    super(
      `The read model's checkpoints are positions in event store log ${bound}, but tail-sync now uses log ${current} ` +
        `(EVENT_STORE was switched, or the store's data was wiped): read on, they would skip or misread events. ` +
        `Point tail-sync at the store it was using (EVENT_STORE, EVENTSTORE_CONNECTION_STRING); or, ${START_OVER}`,
    );
    this.name = 'CheckpointsOfAnotherLog';
  }
}

/**
 * Checks at start that the log can be read, that the readers' checkpoints come from it, and that
 * each lies within it. A store tail-sync may not read (EventStoreDB: reading `$all` needs an
 * admin or an ACL granting it) stops the start with the store's reason. The read model is bound
 * to the log (`<kind>:<log id>`) at its first start; on another log, or with a checkpoint beyond
 * the log's end (read as "nothing new", silently, for ever), the process refuses to start.
 * Checkpoints stored before there was a binding are taken as this log's once within it.
 */
export async function checkCheckpointsWithinLog(
  store: Pick<EventStore, 'headCheckpoint' | 'isAtOrAfter' | 'readStream' | 'append'>,
  binding: EventLogBinding,
  kind: string,
  readers: { reader: string; checkpoint: AllCheckpoint | null }[],
): Promise<void> {
  const head = await store.headCheckpoint();
  for (const { reader, checkpoint } of readers) {
    if (checkpoint !== null && !store.isAtOrAfter(head, checkpoint)) throw new CheckpointBeyondLog(reader, checkpoint, head);
  }
  const log = `${kind}:${await eventLogIdentity(store)}`;
  const bound = await binding.bind(log);
  if (bound !== log) throw new CheckpointsOfAnotherLog(bound, log);
}
