import type { Pool } from 'pg';
import { readModelTables } from '../../tails/infrastructure/read-model/read-model.tables';
import type { TailCounts } from '../application/tail-counts.port';

/** Counts in the read model's tails table (its primary key starts with the domain). */
export class PostgresTailCounts implements TailCounts {
  private readonly tails = readModelTables().tails;

  constructor(private readonly pool: Pool) {}

  async byDomain(domains: string[]): Promise<Record<string, number>> {
    const { rows } = await this.pool.query(`select domain, count(*)::int as tails from ${this.tails} where domain = any($1::text[]) group by domain`, [domains]);
    return Object.fromEntries(rows.map((row) => [row.domain as string, row.tails as number]));
  }
}
