type RequestState = 'running' | 'done' | 'failed';

/**
 * Where one partition's requests stand while they are handled concurrently and finish in any
 * order: which to handle, which to skip (this process is handling it, or has), and the position
 * that is safe to commit: every request before it has been answered.
 *
 * A request that failed holds the position back until it is handled again; so does one still
 * running. A request delivered again (after a seek, or a rebalance that left the partition here)
 * is handled only if it failed.
 */
export class PartitionOffsets {
  private readonly states = new Map<bigint, RequestState>();
  /** Every offset below it has been answered (`null` before the first request). */
  private floor: bigint | null = null;
  /** One past the highest offset handed over. */
  private next: bigint | null = null;
  private committed: bigint | null = null;

  /** A fetched request: true to handle it, false to skip it. */
  begin(offset: string): boolean {
    const o = BigInt(offset);
    if (this.floor !== null && o < this.floor) return false;
    const state = this.states.get(o);
    if (state === 'running' || state === 'done') return false;
    this.states.set(o, 'running');
    if (this.floor === null) this.floor = o;
    if (this.next === null || o >= this.next) this.next = o + 1n;
    return true;
  }

  succeeded(offset: string): void {
    this.settle(offset, 'done');
  }

  failed(offset: string): void {
    this.settle(offset, 'failed');
  }

  /** The position to commit (the next offset to read) when it moved since the last commit, else `null`. */
  toCommit(): string | null {
    if (this.floor === null || (this.committed !== null && this.floor <= this.committed)) return null;
    return this.floor.toString();
  }

  /** Records a successful commit of `position` (a commit may finish after later ones started). */
  markCommitted(position: string): void {
    const p = BigInt(position);
    if (this.committed === null || p > this.committed) this.committed = p;
  }

  private settle(offset: string, state: RequestState): void {
    const o = BigInt(offset);
    if (!this.states.has(o)) return;
    this.states.set(o, state);
    // Move the floor past the answered prefix, and past offsets never handed over (a gap in the log).
    let floor = this.floor as bigint;
    const next = this.next as bigint;
    while (floor < next) {
      const at = this.states.get(floor);
      if (at === 'done') {
        this.states.delete(floor);
        floor++;
      } else if (at === undefined) {
        let lowest = next;
        for (const tracked of this.states.keys()) if (tracked > floor && tracked < lowest) lowest = tracked;
        floor = lowest;
      } else break;
    }
    this.floor = floor;
  }
}
