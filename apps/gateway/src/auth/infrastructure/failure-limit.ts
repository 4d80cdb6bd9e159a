import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { inTransaction, PG_POOL } from '@tailsync/service-kit';
import { createHash } from 'node:crypto';
import { Pool } from 'pg';
import { GatewayConfig } from '../../config/gateway.config';
import { RateLimited } from '../../problems/domain/problem';
import { blockedForSeconds, slowdownMs } from '../domain/sign-in-limits';

/** What a failure counts against. */
export type FailureKey = string & { readonly failureKey: unique symbol };

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
/** A client id from anywhere, by digest: whatever text a caller sends, the key is short and storable. */
export const clientKey = (clientId: string) => `client:${digest(clientId)}` as FailureKey;
/** A client id from one address. */
export const clientAddressKey = (clientId: string, address: string) => `client-address:${digest(clientId)}:${address}` as FailureKey;
export const tokenAddressKey = (address: string) => `token-address:${address}` as FailureKey;
/** The admin API and the console's sign-in both try the admin token: one count for both. */
export const adminAddressKey = (address: string) => `admin-address:${address}` as FailureKey;

/** What an attempt counts against: keys that refuse it at the limit, keys that only slow its answer. */
export interface AttemptKeys {
  blocking: FailureKey[];
  slowing?: FailureKey[];
}

/** A sign-in attempt whose credential takes a while to check (a client secret's hash): counted while it is checked. */
export interface SignInAttempt {
  /** How long its answer waits (a slowing key at its limit). */
  readonly delayMs: number;
  /** The credential was wrong: the attempt counts as a failure for a minute. */
  failed(): Promise<void>;
  /** The attempt does not count: its credential was right, or was never checked. */
  withdraw(): Promise<void>;
}

type Client = Pick<Pool, 'query'>;

/**
 * At most AUTH_FAILURES_PER_MINUTE failed sign-ins per blocking key in any 60 s, counted in
 * PostgreSQL so every gateway copy shares the count. Check and record are one step under a lock
 * per key, so parallel guesses cannot all pass the check before the first failure is recorded.
 */
@Injectable()
export class FailureLimit implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweeper?: NodeJS.Timeout;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    const sweep = () => this.pool.query(`delete from gw_auth_failures where failed_at < now() - interval '2 minutes'`).catch(() => undefined);
    this.sweeper = setInterval(() => void sweep(), 60_000);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  /**
   * Checks a credential that is known at once (the admin token) with the keys locked: 429 with
   * Retry-After when a key is at its limit (a right guess after the limit is refused too), else
   * whether it is right, a wrong one recorded before the lock is let go. A right one costs no write.
   */
  checkNow(blocking: FailureKey[], isRight: () => boolean): Promise<boolean> {
    return this.locked(blocking, async (db) => {
      this.refuseBlocked(blocking, await this.counted(db, blocking));
      const right = isRight();
      if (!right) await db.query('insert into gw_auth_failures (key) select unnest($1::text[])', [blocking]);
      return right;
    });
  }

  /**
   * Counts an attempt whose credential is checked afterwards (a client secret's hash): 429 with
   * Retry-After when a blocking key is at its limit, attempts being checked included; else the
   * attempt, counted until the caller says how it ended.
   */
  async attempt({ blocking, slowing = [] }: AttemptKeys): Promise<SignInAttempt> {
    const keys = [...new Set([...blocking, ...slowing])];
    const { ids, slowingFailures } = await this.locked(keys, async (db) => {
      const rows = await this.counted(db, keys);
      this.refuseBlocked(blocking, rows);
      const failures = Math.max(0, ...slowing.map((key) => rows.filter((r) => r.key === key && !r.checking).length));
      const inserted = await db.query<{ id: string }>('insert into gw_auth_failures (key, checking) select unnest($1::text[]), true returning id', [keys]);
      return { ids: inserted.rows.map((r) => r.id), slowingFailures: failures };
    });
    return {
      delayMs: slowdownMs(slowingFailures, this.config.AUTH_FAILURES_PER_MINUTE),
      failed: async () => {
        await this.pool.query('update gw_auth_failures set checking = false, failed_at = now() where id = any($1::bigint[])', [ids]);
      },
      withdraw: async () => {
        await this.pool.query('delete from gw_auth_failures where id = any($1::bigint[])', [ids]);
      },
    };
  }

  /** Runs `step` in a transaction holding one lock per key (taken in order: no deadlock). */
  private locked<T>(keys: FailureKey[], step: (db: Client) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      await client.query(`select pg_advisory_xact_lock(hashtextextended('gw-auth-failures:' || k, 0)) from unnest($1::text[]) as t(k) order by k`, [keys]);
      return step(client);
    });
  }

  private async counted(db: Client, keys: FailureKey[]): Promise<{ key: string; ageSeconds: number; checking: boolean }[]> {
    const { rows } = await db.query<{ key: string; age: number; checking: boolean }>(
      `select key, extract(epoch from now() - failed_at)::float8 as age, checking
         from gw_auth_failures where key = any($1) and failed_at > now() - interval '1 minute' order by failed_at`,
      [keys],
    );
    return rows.map((r) => ({ key: r.key, ageSeconds: r.age, checking: r.checking }));
  }

  private refuseBlocked(blocking: FailureKey[], rows: { key: string; ageSeconds: number; checking: boolean }[]): void {
    for (const key of blocking) {
      const seconds = blockedForSeconds(rows.filter((r) => r.key === key), this.config.AUTH_FAILURES_PER_MINUTE);
      if (seconds !== null) throw new RateLimited(seconds);
    }
  }
}
