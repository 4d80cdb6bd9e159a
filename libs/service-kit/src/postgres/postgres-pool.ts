import { OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { ReadinessCheck } from '../ops/readiness-check';
import { PreparingClient } from './preparing-client';

export const PG_POOL = Symbol('PG_POOL');

/**
 * The pool every process uses. Statements with parameters are prepared once per connection
 * (PreparingClient) but planned for their actual values on every run: a generic plan, planned
 * once for arrays of unknown length, made 1,000-tail bulk calls 2-3x slower (docs/performance.md).
 * Random page reads are costed as on SSD or cached data (1.1, not the spinning-disk 4): with the
 * default, a 1,000-tail call's 2,000 reservation keys were hash-joined against a full scan of the
 * table (27 ms at 80,000 rows, growing with it) instead of looked up by primary key (8 ms).
 */
export function createPool(url: string, max = 20): Pool {
  const pool = new Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    Client: PreparingClient,
    options: '-c plan_cache_mode=force_custom_plan -c random_page_cost=1.1',
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

export class PostgresReadiness implements ReadinessCheck {
  readonly name = 'database';
  constructor(private readonly pool: Pool) {}
  async check(): Promise<void> {
    await this.pool.query('select 1');
  }
}

/** Closes the process's pool after Nest has stopped everything that uses it. */
export class PoolLifecycle implements OnApplicationShutdown {
  constructor(private readonly pool: Pool) {}
  async onApplicationShutdown(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
