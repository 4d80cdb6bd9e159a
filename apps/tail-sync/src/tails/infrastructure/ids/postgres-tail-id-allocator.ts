import type { Pool } from 'pg';
import type { TailIdAllocator } from '../../application/tail-id-allocator';

export interface PostgresTailIdAllocatorOptions {
  /** Sequence name (an unquoted PostgreSQL identifier); `tail_ids` by default. */
  sequence?: string;
  /**
   * Ids taken from the sequence at least at a time and handed out from memory (default 100):
   * most write batches then need no round trip for their ids. Ids left when the process stops
   * are never used (gaps are allowed: ids are unique, not consecutive).
   */
  block?: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Ids from a PostgreSQL sequence, taken a block at a time; at most one round trip per call. */
export class PostgresTailIdAllocator implements TailIdAllocator {
  readonly sequence: string;
  private readonly block: number;
  /** Ids taken from the sequence and not handed out yet, ascending. */
  private spare: number[] = [];

  constructor(
    private readonly pool: Pool,
    opts: PostgresTailIdAllocatorOptions = {},
  ) {
    this.sequence = opts.sequence ?? 'tail_ids';
    this.block = Math.max(1, opts.block ?? 100);
    if (!IDENTIFIER.test(this.sequence)) throw new Error(`Invalid sequence name '${this.sequence}'`);
  }

  /** Creates the sequence (idempotent, safe when several processes start at once). */
  async migrate(): Promise<void> {
    try {
      await this.pool.query(`create sequence if not exists ${this.sequence} as bigint minvalue 1 start with 1`);
    } catch (e) {
      // Two concurrent `create ... if not exists` can still collide on the catalog.
      const code = (e as { code?: string }).code;
      if (code !== '23505' && code !== '42P07') throw e;
    }
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
