import type { AllCheckpoint } from '@tailsync/event-store';
import type { ClientBase, Pool } from 'pg';
import { escapeLiteral } from 'pg';

type Queryable = Pick<Pool | ClientBase, 'query'>;

/** One reader's row in the checkpoints table (`rm_checkpoints`): where it has read the store up to. */
export class ProjectionCheckpoints {
  constructor(
    /** The checkpoints table, as SQL names it. */
    readonly table: string,
    /** The reader's name: the row's key. */
    readonly name: string,
  ) {}

  /** The query reading the checkpoint, inlined (for a multi-statement simple query). */
  get selectSql(): string {
    return `select checkpoint from ${this.table} where name = ${escapeLiteral(this.name)}`;
  }

  async read(on: Queryable): Promise<AllCheckpoint | null> {
    const { rows } = await on.query<{ checkpoint: string }>(`select checkpoint from ${this.table} where name = $1`, [this.name]);
    return rows[0] ? { value: rows[0].checkpoint } : null;
  }

  async store(on: Queryable, checkpoint: AllCheckpoint): Promise<void> {
    await on.query(
      `insert into ${this.table} (name, checkpoint, updated_at) values ($1, $2, now())
       on conflict (name) do update set checkpoint = excluded.checkpoint, updated_at = excluded.updated_at`,
      [this.name, checkpoint.value],
    );
  }

  async remove(on: Queryable): Promise<void> {
    await on.query(`delete from ${this.table} where name = $1`, [this.name]);
  }
}
