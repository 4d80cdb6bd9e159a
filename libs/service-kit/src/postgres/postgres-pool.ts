import { OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { ReadinessCheck } from '../ops/readiness-check';
import { PreparingClient } from './preparing-client';

export const PG_POOL = Symbol('PG_POOL');

/**
 * The pool every process uses. Statements are prepared once per connection (PreparingClient) but
 * planned for their actual values: a generic plan, made for arrays of unknown length, is slow for
 * batches. Random page reads are costed as on SSD or cached data (1.1, not the spinning-disk 4),
 * or batch key lookups become full scans. Figures: docs/performance.md, "Performance choices".
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
