import type { TailIdAllocator } from '../../application/tail-id-allocator';

/**
 * The service tail ids one create-or-map batch takes, kept across its retries: decisions never
 * depend on id values, so a retry reuses what was allocated and asks only for what is missing.
 */
export class TailIdPlan {
  private readonly pool: number[] = [];

  constructor(private readonly ids: TailIdAllocator) {}

  /** Makes sure the batch holds at least `count` ids (one allocation round trip when it does not). */
  async provide(count: number): Promise<void> {
    const needed = count - this.pool.length;
    if (needed > 0) this.pool.push(...(await this.ids.next(needed)));
  }

  /** Hands out the batch's ids in order, from the first, for one decision of the batch. */
  handOut(): () => number {
    let taken = 0;
    return () => {
      const id = this.pool[taken++];
      if (id === undefined) throw new Error('Tail id pool exhausted');
      return id;
    };
  }

  /** Whether `tailId` was allocated to this batch: a claim naming it was written by an earlier attempt. */
  owns(tailId: number): boolean {
    return this.pool.includes(tailId);
  }
}

/** Negative stand-ins for a decision made only to count the tails a batch creates. */
export function placeholderIds(): () => number {
  let placeholder = 0;
  return () => --placeholder;
}
