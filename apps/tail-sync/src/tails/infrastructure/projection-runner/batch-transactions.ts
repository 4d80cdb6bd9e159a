import type { AllCheckpoint } from '@tailsync/event-store';
import type { Pool, PoolClient } from 'pg';
import type { ProjectionCheckpoints } from './projection-checkpoints';
import type { ProjectionSession } from './projection-session';

const noop = () => undefined;

/**
 * One transaction per batch under a transaction-level advisory lock, so any number of copies may
 * catch up and none applies a batch twice: the checkpoint is read after the lock, and the batch's
 * rows and its new checkpoint commit together.
 */
export class BatchTransactions implements ProjectionSession<PoolClient> {
  readonly held = true;
  private readonly beginSql: string;

  constructor(
    private readonly pool: Pool,
    lockKey: string,
    checkpoints: ProjectionCheckpoints,
  ) {
    // begin + lock + checkpoint read in one round trip (simple query protocol). The commit does not
    // wait for its WAL flush: read models and their checkpoint are derived, one transaction, and a
    // commit lost in a database crash is applied again from the event store. Waiting for the
    // disk (up to 150 ms on a busy virtual disk) was the tail of every command's answer.
    this.beginSql = `begin; set local synchronous_commit = off; select pg_advisory_xact_lock(${lockKey}); ${checkpoints.selectSql}`;
  }

  open(): Promise<PoolClient> {
    return this.pool.connect();
  }

  async begin(client: PoolClient): Promise<AllCheckpoint | null> {
    const results = (await client.query(this.beginSql)) as unknown as { rows: { checkpoint: string }[] }[];
    const stored = results[results.length - 1].rows[0];
    return stored ? { value: stored.checkpoint } : null;
  }

  async commit(client: PoolClient): Promise<void> {
    await client.query('commit');
  }

  async close(client: PoolClient): Promise<void> {
    client.release();
  }

  async abandon(client: PoolClient): Promise<void> {
    await client.query('rollback').catch(noop);
    client.release(true);
  }
}
