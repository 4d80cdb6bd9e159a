import type { AllCheckpoint, StoredEvent } from '@tailsync/event-store';
import type { ClientBase } from 'pg';

/** What a projection does with its batches: the part that is not the runner's. */
export interface ProjectionWriter<Batch> {
  /** What a batch writes, made from its events (it may read more); made while the batch before is written. */
  prepare(events: StoredEvent[]): Promise<Batch>;
  /** Writes a batch and stores `checkpoint` on `client` (in the batch's transaction, if any); returns the tail events applied. */
  write(client: ClientBase, batch: Batch, checkpoint: AllCheckpoint): Promise<number>;
}

/** What a catch-up did (for logs, metrics and tests). */
export interface CatchUpStats {
  batches: number;
  events: number;
  tailEvents: number;
  checkpoint: AllCheckpoint | null;
}

/** The stats of a run that has applied nothing (yet), at `checkpoint`. */
export const noStats = (checkpoint: AllCheckpoint | null): CatchUpStats => ({ batches: 0, events: 0, tailEvents: 0, checkpoint });
