import type { AllCheckpoint } from '@tailsync/event-store';
import { LeaderLock } from '@tailsync/service-kit';
import type { Client, Pool } from 'pg';
import type { ProjectionCheckpoints } from './projection-checkpoints';
import type { ProjectionSession } from './projection-session';

/**
 * One copy at a time: it holds a session-level `pg_try_advisory_lock` on a dedicated connection
 * (not taken from the pool). If that copy dies its session ends, the lock is released and another
 * copy's next attempt takes over. Only the holder writes the checkpoint, so it keeps it in memory.
 */
export class LeaderSession implements ProjectionSession<Client> {
  private readonly lock: LeaderLock;
  /** The stored checkpoint as this copy last read or wrote it while holding the lock. */
  private checkpoint: AllCheckpoint | null | undefined;

  constructor(
    pool: Pool,
    readonly lockKey: string,
    private readonly checkpoints: ProjectionCheckpoints,
    onAcquired: () => void,
  ) {
    this.lock = new LeaderLock(pool, lockKey, {
      // Its checkpoint writes need not wait for the disk: a checkpoint lost in a database crash
      // only means a batch applied again (the relay publishes at least once).
      sessionSql: 'set synchronous_commit = off',
      onAcquired: () => {
        this.checkpoint = undefined;
        onAcquired();
      },
    });
  }

  get held(): boolean {
    return this.lock.held;
  }

  open(): Promise<Client | null> {
    return this.lock.acquire();
  }

  async begin(client: Client): Promise<AllCheckpoint | null> {
    if (this.checkpoint === undefined) this.checkpoint = await this.checkpoints.read(client);
    return this.checkpoint;
  }

  async commit(_client: Client, reached: AllCheckpoint | null): Promise<void> {
    this.checkpoint = reached;
  }

  async close(): Promise<void> {}

  /** Connection lost, Kafka down...: the lock is given up; the next attempt (this copy or another) starts again from the stored checkpoint. */
  abandon(): Promise<void> {
    return this.lock.release();
  }

  /** Ends the lock's session: another copy takes over. */
  release(): Promise<void> {
    return this.lock.release();
  }
}
