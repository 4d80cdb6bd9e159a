import { OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { ReadinessCheck } from '../ops/readiness-check';

export const PG_POOL = Symbol('PG_POOL');

export function createPool(url: string, max = 20): Pool {
  const pool = new Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
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
