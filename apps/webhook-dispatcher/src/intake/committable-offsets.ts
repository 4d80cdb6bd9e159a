import type { CommitPosition } from '@tailsync/service-kit';

/**
 * Per partition, the position to commit: the offset after the last consumed batch whose deliveries
 * are all durably stored, batches taken in the order they were consumed (a later batch stored first
 * waits for the earlier ones). A batch whose storing failed holds its partition back for good: the
 * next owner reads from the last position committed before it.
 */
export class CommittableOffsets {
  private readonly positions = new Map<number, { offset: string; committed: boolean }>();
  private readonly chains = new Map<number, Promise<void>>();
  private assignment = 0;

  constructor(
    private readonly topic: string,
    /** Told when a position moved. */
    private readonly moved: () => void,
  ) {}

  /** `next` (the offset after a consumed batch) becomes committable once `stored` and every earlier batch's storing resolve. */
  after(partition: number, next: string, stored: Promise<unknown>): void {
    const assignment = this.assignment;
    const chain = Promise.all([this.chains.get(partition), stored]).then(() => {
      if (assignment !== this.assignment) return; // the partition may be another copy's now
      this.positions.set(partition, { offset: next, committed: false });
      this.moved();
    });
    chain.catch(() => undefined);
    this.chains.set(partition, chain);
  }

  /** A new assignment: positions of partitions no longer assigned are forgotten, storing under way no longer moves any. */
  reassigned(assigned: Set<number>): void {
    this.assignment++;
    for (const partition of this.positions.keys()) if (!assigned.has(partition)) this.positions.delete(partition);
    this.chains.clear();
  }

  /** Resolves when every batch consumed so far is stored (or failed to be), or at `deadline`. */
  async settled(deadline: number): Promise<void> {
    const all = Promise.allSettled([...this.chains.values()]);
    await Promise.race([all, new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref())]);
  }

  /** The positions that moved since they were last committed. */
  due(): CommitPosition[] {
    return [...this.positions].filter(([, p]) => !p.committed).map(([partition, p]) => ({ topic: this.topic, partition, offset: p.offset }));
  }

  /** Positions committed (of any topic: those of others are passed over). */
  committed(positions: CommitPosition[]): void {
    for (const { topic, partition, offset } of positions) {
      if (topic !== this.topic) continue;
      const p = this.positions.get(partition);
      if (p?.offset === offset) p.committed = true;
    }
  }
}
