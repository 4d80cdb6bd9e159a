import { inSchema } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import type { TailIdAllocator } from '../../application/tail-id-allocator';

export interface PostgresTailIdAllocatorOptions {
  /** Schema of the sequence `tail_ids` (made by tail-sync's migrations). Default: the connection's `search_path`. */
  schema?: string;
  /**
   * Ids taken from the sequence at least at a time and handed out from memory (default 100):
   * most write batches then need no round trip for their ids. Ids left when the process stops
   * are never used (gaps are allowed: ids are unique, not consecutive).
   */
  block?: number;
}

/** Ids from a PostgreSQL sequence, taken a block at a time; at most one round trip per call. */
export class PostgresTailIdAllocator implements TailIdAllocator {
  private readonly sequence: string;
  private readonly block: number;
  /** Ids taken from the sequence and not handed out yet, ascending. */
  private spare: number[] = [];

  constructor(
    private readonly pool: Pool,
    opts: PostgresTailIdAllocatorOptions = {},
  ) {
    this.sequence = inSchema(opts.schema, 'tail_ids');
    this.block = Math.max(1, opts.block ?? 100);
  }

  async next(count: number): Promise<number[]> {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`Invalid id count ${count}`);
    if (count === 0) return [];
    if (this.spare.length < count) {
      // Enough for this call on its own: calls running meanwhile may use the spare ids.
      const taken = await this.take(Math.max(count, this.block));
      this.spare = [...this.spare, ...taken].sort((a, b) => a - b);
    }
    return this.spare.splice(0, count);
  }

  private async take(count: number): Promise<number[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `select nextval('${this.sequence}')::text as id from generate_series(1, $1::int)`,
      [count],
    );
    const ids = rows.map((r) => Number(r.id));
    for (const id of ids) if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`Tail id out of range: ${id}`);
    return ids;
  }
}
