import { advisoryLockKey } from '@tailsync/service-kit';
import type { Pool, PoolClient } from 'pg';
import type { AllCheckpoint, EventStore, StoredEvent } from '@tailsync/event-store';
import { RecentTailEvents } from '../recent-tail-events';
import { BatchTransactions } from '../projection-runner/batch-transactions';
import { ProjectionCheckpoints } from '../projection-runner/projection-checkpoints';
import { ProjectionRunner } from '../projection-runner/projection-runner';
import type { CatchUpStats } from '../projection-runner/projection-writer';
import { consoleLogger, type ReadSideLogger } from '../projection-runner/read-side-logger';
import { readModelTables, type ReadModelTables } from './read-model.tables';
import { TailRowsWriter } from './tail-rows.writer';

export { ProjectionStoppedError, ProjectionTimeoutError } from '../projection-runner/projection-errors';
export type { CatchUpStats } from '../projection-runner/projection-writer';

export interface TailsProjectionOptions {
  /** Name of the projection: its checkpoint row and its lock. Default `tails`. */
  name?: string;
  /** Events read (and applied in one transaction) per batch. Default 2000. */
  batchSize?: number;
  /** Schema of the read-model tables. Default: the connection's `search_path`. */
  schema?: string;
  /** Period of the background loop (`start()`). Default 200 ms. */
  pollIntervalMs?: number;
  /** Pause before catching up again while a waiter's event is not visible yet. Default 2 ms. */
  retryDelayMs?: number;
  /** Where catch-ups read the tail events: shared with the relay in the app (one read per event). */
  recentEvents?: RecentTailEvents;
  logger?: ReadSideLogger;
}

/**
 * Projects the tail streams of the event store into `rm_tails` and `rm_tail_mappings` (read by
 * `TailsReadModel`, beside it), with the projection runner:
 *
 * - One transaction per batch (`BatchTransactions`): any number of tail-sync copies catch up,
 *   none applies a batch twice, and the rows move with the checkpoint.
 * - `waitFor(checkpoint)` lets a command answer once its effect is readable; concurrent waiters
 *   share catch-ups.
 *
 * Framework-free: construct with a pool (at least 2 connections: the event store reads on
 * another connection while the batch transaction is open) and the event store.
 */
export class TailsProjection extends ProjectionRunner<StoredEvent[], PoolClient> {
  private readonly pool: Pool;
  private readonly tables: ReadModelTables;

  constructor(pool: Pool, eventStore: EventStore, opts: TailsProjectionOptions = {}) {
    const name = opts.name ?? 'tails';
    const tables = readModelTables(opts.schema);
    const logger = opts.logger ?? consoleLogger;
    const checkpoints = new ProjectionCheckpoints(tables.checkpoints, name);
    const lockKey = advisoryLockKey(`tailsync.projection:${tables.lockScope}:${name}`);
    const pollIntervalMs = Math.max(1, opts.pollIntervalMs ?? 200);
    super(name, eventStore, new BatchTransactions(pool, lockKey, checkpoints), checkpoints, new TailRowsWriter(name, tables, logger), {
      batchSize: Math.max(1, opts.batchSize ?? 2000),
      pollIntervalMs,
      retryDelayMs: opts.retryDelayMs,
      recentEvents: opts.recentEvents ?? new RecentTailEvents(eventStore),
      logger,
      failing: `Projection '${name}' catch-up`,
    });
    this.pool = pool;
    this.tables = tables;
  }

  /** The stored checkpoint (one query). */
  storedCheckpoint(): Promise<AllCheckpoint | null> {
    return this.checkpoints.read(this.pool);
  }

  /**
   * Empties the read model and its checkpoint and replays every event, in ONE transaction under
   * the projection's lock: readers keep seeing the old rows until it commits, and other copies'
   * catch-ups wait for it. Then catches up with what was written meanwhile.
   */
  rebuild(): Promise<CatchUpStats> {
    return this.rebuildWith((client) => client.query(`delete from ${this.tables.mappings}; delete from ${this.tables.tails}`));
  }
}
