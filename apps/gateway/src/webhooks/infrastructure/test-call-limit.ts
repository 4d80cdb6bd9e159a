import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PG_POOL } from '@tailsync/service-kit';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { RateLimited } from '../../problems/domain/problem';

export const TEST_CALLS_IN_FLIGHT = 2;
export const TEST_CALLS_PER_MINUTE = 10;

/**
 * A domain's Test calls: at most TEST_CALLS_IN_FLIGHT at once and TEST_CALLS_PER_MINUTE in any
 * 60 s, across every gateway copy (rows in PostgreSQL, each domain's check and insert under a
 * transaction-scoped advisory lock so two copies cannot both take the last place). One domain
 * testing a receiver that never answers thus holds two calls, never everyone's capacity.
 */
@Injectable()
export class TestCallLimit implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweeper?: NodeJS.Timeout;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  onApplicationBootstrap(): void {
    const sweep = () => this.pool.query(`delete from gw_test_calls where started_at < now() - interval '5 minutes'`).catch(() => undefined);
    this.sweeper = setInterval(() => void sweep(), 60_000);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  /** Runs `call` in one of the domain's places, or answers 429 with Retry-After when there is none. */
  async run<T>(domain: string, call: () => Promise<T>): Promise<T> {
    const id = await this.take(domain);
    try {
      return await call();
    } finally {
      await this.pool.query('update gw_test_calls set finished_at = now() where id = $1', [id]).catch(() => undefined);
    }
  }

  private async take(domain: string): Promise<string> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`gw_test_calls:${domain}`]);
      const { rows } = await client.query<{ in_flight: number; last_minute: number; oldest_left: number | null }>(
        // An unfinished call older than a minute had its gateway die: a Test call lasts seconds.
        `select count(*) filter (where finished_at is null)::int as in_flight,
                count(*)::int as last_minute,
                extract(epoch from min(started_at) + interval '1 minute' - now())::float8 as oldest_left
           from gw_test_calls where domain = $1 and started_at > now() - interval '1 minute'`,
        [domain],
      );
      const { in_flight, last_minute, oldest_left } = rows[0];
      if (in_flight >= TEST_CALLS_IN_FLIGHT || last_minute >= TEST_CALLS_PER_MINUTE) {
        await client.query('rollback');
        // In flight: a call lasts seconds; per minute: until the oldest of the minute leaves it.
        throw new RateLimited(last_minute >= TEST_CALLS_PER_MINUTE ? Math.max(1, Math.ceil(oldest_left ?? 1)) : 1);
      }
      const id = randomUUID();
      await client.query('insert into gw_test_calls (id, domain) values ($1, $2)', [id, domain]);
      await client.query('commit');
      return id;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
