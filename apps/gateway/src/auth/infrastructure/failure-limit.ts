import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PG_POOL } from '@tailsync/service-kit';
import { createHash } from 'node:crypto';
import { Pool } from 'pg';
import { GatewayConfig } from '../../config/gateway.config';
import { RateLimited } from '../../problems/domain/problem';

/** What a failure counts against. */
export type FailureKey = string & { readonly failureKey: unique symbol };

/** A client id, by digest: whatever text a caller sends, the key is short and storable. */
export const clientKey = (clientId: string) => `client:${createHash('sha256').update(clientId).digest('base64url')}` as FailureKey;
export const tokenAddressKey = (address: string) => `token-address:${address}` as FailureKey;
/** The admin API and the console's sign-in both try the admin token: one count for both. */
export const adminAddressKey = (address: string) => `admin-address:${address}` as FailureKey;

/**
 * At most AUTH_FAILURES_PER_MINUTE failed sign-ins per key in any 60 s, counted in PostgreSQL so
 * every gateway copy shares the count. Only failures are written: a right credential costs a read.
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

  /** 429 with Retry-After when any key is at its limit; checked before the credential, so a right guess after the limit is refused too. */
  async refuseIfBlocked(keys: FailureKey[]): Promise<void> {
    const { rows } = await this.pool.query<{ key: string; seconds_left: number }>(
      `select key, extract(epoch from failed_at + interval '1 minute' - now())::float8 as seconds_left
         from gw_auth_failures where key = any($1) and failed_at > now() - interval '1 minute' order by failed_at`,
      [keys],
    );
    const limit = this.config.AUTH_FAILURES_PER_MINUTE;
    for (const key of keys) {
      const failures = rows.filter((row) => row.key === key);
      // Allowed again once enough of them are older than a minute to leave room for one more.
      if (failures.length >= limit) throw new RateLimited(Math.max(1, Math.ceil(failures[failures.length - limit].seconds_left)));
    }
  }

  async recordFailure(keys: FailureKey[]): Promise<void> {
    await this.pool.query('insert into gw_auth_failures (key) select unnest($1::text[])', [keys]);
  }
}
