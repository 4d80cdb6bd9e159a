import type { MinuteCount } from '@tailsync/contracts';
import type { Pool } from 'pg';
import { readModelTables } from '../../tails/infrastructure/read-model/read-model.tables';
import type { TailActivity } from '../application/tail-activity.port';

/** Reads the tails table and the readers' checkpoints of the read model. */
export class PostgresTailActivity implements TailActivity {
  private readonly tables = readModelTables();

  constructor(private readonly pool: Pool) {}

  async writtenPerMinute(since: Date): Promise<MinuteCount[]> {
    const { rows } = await this.pool.query(
      `select domain, date_trunc('minute', updated_at) as minute, count(*)::int as count
         from ${this.tables.tails} where updated_at >= $1 group by 1, 2`,
      [since],
    );
    return rows.map((row) => ({ domain: row.domain as string, minute: (row.minute as Date).toISOString(), count: row.count as number }));
  }

  async checkpoints(names: string[]): Promise<Map<string, string | null>> {
    const { rows } = await this.pool.query(`select name, checkpoint from ${this.tables.checkpoints} where name = any($1::text[])`, [names]);
    const found = new Map<string, string | null>(names.map((name) => [name, null]));
    for (const row of rows) found.set(row.name as string, row.checkpoint as string);
    return found;
  }
}
