import type { BackfillState, BackfillView } from '@tailsync/contracts';

/** Where a job stands on one input topic: the domain's partition, the next offset to read, and the end it reads to. */
export interface TopicCheckpoint {
  partition: number;
  next: string;
  end: string;
}

/** A job's progress, by topic (the job row's `checkpoint`): a copy that takes the job over resumes here. */
export type BackfillCheckpoint = Record<string, TopicCheckpoint>;

/** A job as a copy runs it, once claimed with its lease. */
export interface ClaimedBackfill {
  id: string;
  domain: string;
  since: Date;
  checkpoint: BackfillCheckpoint;
}

/** The states in which a job still has work (one per domain at a time). */
export const ACTIVE_STATES: readonly BackfillState[] = ['queued', 'running'];

export type { BackfillState, BackfillView };
