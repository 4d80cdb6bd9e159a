import { OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { ReadinessCheck } from '../ops/readiness-check';
import { PreparingClient } from './preparing-client';
import { silentServerSocket } from './silent-server-socket';

export const PG_POOL = Symbol('PG_POOL');

/**
 * How the pool's statements are planned. `each-execution`: for the values given (a generic plan,
 * made for arrays of unknown length, is slow for batches). `once`: a generic plan per connection,
 * for fixed-shape statements that reach rows by key on a hot path, whose planning would cost more
 * than their execution.
 */
export type StatementPlanning = 'each-execution' | 'once';

const PLAN_CACHE_MODE: Record<StatementPlanning, string> = { 'each-execution': 'force_custom_plan', once: 'force_generic_plan' };

/**
 * How the server gives up on a session whose copy went silent (a partition, a frozen host): the
 * locks such a session holds (a projection's transaction lock, the relay's leadership) would
 * otherwise stall every other copy until the network heals. A transaction idle for 5 s is ended;
 * an idle session whose peer does not answer keep-alive probes (5 s, then 3 × 2 s), or that leaves
 * sent data unacknowledged for 10 s, is closed. docs/operations.md, "Settings that matter".
 */
const SILENT_SESSION_SETTINGS =
  '-c idle_in_transaction_session_timeout=5000 -c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3 -c tcp_user_timeout=10000';

/**
 * The pool every process uses. Statements are prepared once per connection (PreparingClient) and
 * planned as `planning` says. Random page reads are costed as on SSD or cached data (1.1, not the
 * spinning-disk 4), or batch key lookups become full scans. Figures: docs/performance.md,
 * "Performance choices". Sessions of a silent copy end on the server (SILENT_SESSION_SETTINGS),
 * and connections to a silent server end on the client (silentServerSocket); the LISTEN and
 * leadership sessions are made with the pool's options, so they inherit both.
 */
export function createPool(url: string, max = 20, planning: StatementPlanning = 'each-execution'): Pool {
  const pool = new Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    Client: PreparingClient,
    stream: silentServerSocket,
    options: `-c plan_cache_mode=${PLAN_CACHE_MODE[planning]} -c random_page_cost=1.1 ${SILENT_SESSION_SETTINGS}`,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Nor may a checked-out one (pool.connect(), a transaction) when its server dies (a failover):
  // pg emits 'error' on it, which no one hears; its statement in flight fails all the same, and
  // the pool drops the dead client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export class PostgresReadiness implements ReadinessCheck {
  readonly name = 'database';
  constructor(private readonly pool: Pool) {}
  async check(): Promise<void> {
    await this.pool.query('select 1');
  }
}

/** Closes the process's pools after Nest has stopped everything that uses them. */
export class PoolLifecycle implements OnApplicationShutdown {
  private readonly pools: Pool[];
  constructor(...pools: Pool[]) {
    this.pools = [...new Set(pools)];
  }
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.end().catch(() => undefined)));
  }
}
