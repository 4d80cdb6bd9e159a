import type { Pool } from 'pg';
import type { ReadModelTables } from './read-model/read-model.tables';

/** Where the read model records which event store log its checkpoints are positions in. */
export interface EventLogBinding {
  /** Binds to `log` if bound to none yet; returns the log bound to (`log`, or the earlier one). */
  bind(log: string): Promise<string>;
}

/** The binding in the read model's database (`rm_event_log`, one row). */
export class PostgresEventLogBinding implements EventLogBinding {
  constructor(
    private readonly pool: Pool,
    private readonly tables: ReadModelTables,
  ) {}

  async bind(log: string): Promise<string> {
    const { rows } = await this.pool.query<{ log: string }>(
      `with added as (insert into ${this.tables.eventLog} (log) values ($1) on conflict (only_row) do nothing returning log)
       select log from added union all select log from ${this.tables.eventLog}`,
      [log],
    );
    if (rows.length > 0) return rows[0].log;
    // Another copy bound first, in the same moment: the insert waited for its commit, but this
    // statement's snapshot predates it. A new statement sees that copy's row.
    const bound = await this.pool.query<{ log: string }>(`select log from ${this.tables.eventLog}`);
    return bound.rows[0].log;
  }
}
