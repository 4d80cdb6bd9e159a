import type { Consumer } from 'kafkajs';

/** A position to commit: the next offset the group reads from the partition. */
export interface CommitPosition {
  topic: string;
  partition: number;
  offset: string;
}

export interface PeriodicOffsetCommitsOptions {
  /** The least time between two commits. */
  intervalMs: number;
  /** The positions that moved since they were last committed (read when a commit starts). */
  due: () => CommitPosition[];
  /** Told of positions the broker accepted. */
  committed: (positions: CommitPosition[]) => void;
}

/**
 * Commits a consumer's offsets at most once per interval instead of after every fetched batch (what
 * kafkajs' `autoCommit` does, one OffsetCommit per batch: at a steady trickle, one per message). A
 * crash re-delivers at most an interval more of handled messages, which every consumer using this
 * takes again without harm. One commit at a time: positions that move during one are folded into the
 * next. A commit the broker refuses (a rebalance under way) is left to the next.
 */
export class PeriodicOffsetCommits {
  private committing: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private lastAt = 0;
  private closed = false;

  constructor(
    private readonly consumer: () => Pick<Consumer, 'commitOffsets'> | undefined,
    private readonly options: PeriodicOffsetCommitsOptions,
  ) {}

  /** A commit `intervalMs` after the last one began (at once if that is past), unless one is due already. */
  schedule(): void {
    if (this.timer || this.closed) return;
    const delay = Math.max(0, this.lastAt + this.options.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.commit().catch(() => undefined);
    }, delay);
  }

  /** Commits what is due now and schedules no more (before the consumer disconnects). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.commit();
  }

  private commit(): Promise<void> {
    if (this.committing) {
      this.again = true;
      return this.committing;
    }
    this.lastAt = Date.now();
    const run = async () => {
      do {
        this.again = false;
        const due = this.options.due();
        const consumer = this.consumer();
        if (due.length === 0 || !consumer) return;
        await consumer.commitOffsets(due.map(({ topic, partition, offset }) => ({ topic, partition, offset })));
        this.options.committed(due);
      } while (this.again);
    };
    this.committing = run().finally(() => {
      this.committing = null;
    });
    return this.committing;
  }
}
