/**
 * Per partition assigned to this copy, the high-water mark just after the assignment: offsets below
 * it may be events the partition's previous owner read and attempted before storing them (it stops
 * fetching before it leaves the group; a copy removed from the group without leaving attempts
 * nothing before storing it, see domain/first-attempt.ts). Events above it only this copy reads.
 */
export class InheritedOffsets {
  private bounds: Promise<Map<number, bigint>> = Promise.resolve(new Map());
  /** Per partition, the high-water mark of its first batch since the assignment (when the marks were not had). */
  private readonly firstSeen = new Map<number, bigint>();

  /** A new assignment, with a request for the high-water marks of the topic's partitions made after it. */
  reassigned(highWatermarks: Promise<Map<number, bigint>>): void {
    // Without the marks every partition's first batch stands in for them: its own mark, later still.
    this.bounds = highWatermarks.catch(() => new Map());
    this.firstSeen.clear();
  }

  /** The bound of `partition`, or, without it, the high-water mark of its first batch since the assignment. */
  async boundOf(partition: number, batchHighWatermark: string): Promise<bigint> {
    const bound = (await this.bounds).get(partition);
    if (bound !== undefined) return bound;
    let first = this.firstSeen.get(partition);
    if (first === undefined) {
      first = BigInt(batchHighWatermark);
      this.firstSeen.set(partition, first);
    }
    return first;
  }
}
