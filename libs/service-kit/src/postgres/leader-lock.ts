import { createHash } from 'node:crypto';
import { Client, type Pool } from 'pg';

export interface LeaderLockOptions {
  /** Statements run once on the lock's own session after it connects (e.g. `set synchronous_commit = off`). */
  sessionSql?: string;
  /** Told each time this copy becomes the leader (state read under an earlier leadership is stale). */
  onAcquired?: () => void;
}

const noop = () => undefined;

/**
 * A 64-bit advisory lock key (as a decimal string) derived from a name, computed locally so taking
 * the lock needs no extra round trip.
 */
export function advisoryLockKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
}

/**
 * Leadership among copies of a service: a session-level `pg_try_advisory_lock` held on a dedicated
 * connection (not from the pool). A copy that dies loses its session and so the lock; the
 * connection is kept between attempts, so a standby copy's attempt is one query.
 */
export class LeaderLock {
  private client: Client | null = null;
  private broken = false;
  private leader = false;

  constructor(
    private readonly pool: Pool,
    /** The advisory lock's 64-bit key, as a decimal string. */
    readonly key: string,
    private readonly options: LeaderLockOptions = {},
  ) {}

  /** true while this copy holds the lock. */
  get held(): boolean {
    return this.leader && this.client !== null && !this.broken;
  }

  /** The lock's connection if this copy is (or just became) the leader, else null. */
  async acquire(): Promise<Client | null> {
    if (this.client && this.broken) await this.release();
    if (!this.client) {
      const client = new Client({ ...this.pool.options, keepAlive: true } as ConstructorParameters<typeof Client>[0]);
      client.on('error', () => {
        // The session is gone, and with it the lock: stop acting as leader.
        if (this.client === client) this.broken = true;
      });
      try {
        await client.connect();
        if (this.options.sessionSql) await client.query(this.options.sessionSql);
      } catch (err) {
        await client.end().catch(noop);
        throw err;
      }
      this.client = client;
      this.broken = false;
      this.leader = false;
    }
    const client = this.client;
    if (!this.leader) {
      try {
        const { rows } = await client.query<{ locked: boolean }>(`select pg_try_advisory_lock(${this.key}) as locked`);
        this.leader = rows[0].locked;
      } catch (err) {
        await this.release();
        throw err;
      }
      if (this.leader) this.options.onAcquired?.();
    }
    return this.leader ? client : null;
  }

  /** Ends the dedicated session, which releases the lock if this copy held it. */
  async release(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.broken = false;
    this.leader = false;
    if (!client) return;
    await client.end().catch(noop);
  }
}
