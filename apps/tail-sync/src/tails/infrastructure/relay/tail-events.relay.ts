import { advisoryLockKey, type Sender } from '@tailsync/service-kit';
import type { Client, Pool } from 'pg';
import { TOPICS } from '@tailsync/contracts';
import type { AllCheckpoint, EventStore } from '@tailsync/event-store';
import { readModelTables } from '../read-model/read-model.tables';
import { RecentTailEvents } from '../recent-tail-events';
import { LeaderSession } from '../projection-runner/leader-session';
import { ProjectionCheckpoints } from '../projection-runner/projection-checkpoints';
import { ProjectionRunner } from '../projection-runner/projection-runner';
import { consoleLogger, type ReadSideLogger } from '../projection-runner/read-side-logger';
import { TailEventsPublisher, type TailEventMessages } from './tail-events.publisher';

export interface TailEventsRelayOptions {
  /** Topic to publish to. Default `tailsync.tail-events` (`TOPICS.tailEvents`). */
  topic?: string;
  /** Name of the checkpoint row and of the leadership lock. Default `relay:<topic>`. */
  name?: string;
  /** Schema of the read-model tables (the checkpoint lives in `rm_checkpoints`). Default: the connection's `search_path`. */
  schema?: string;
  /** Events read and published per batch. Default 1000. */
  batchSize?: number;
  /** Pause of the loop when caught up (leader). Default 50 ms; `nudge()` cuts it short. */
  pollIntervalMs?: number;
  /** How often a copy that is not the leader tries to take over. Default 500 ms. */
  standbyIntervalMs?: number;
  /** Pause after a failure (Kafka or database down). Default 1000 ms. */
  errorBackoffMs?: number;
  /** Upper bound of the JSON bytes of one `send` (a batch is split, sends stay sequential). Default 512 KiB. */
  maxBytesPerSend?: number;
  /** Where batches read the tail events: shared with the projection in the app (one read per event). */
  recentEvents?: RecentTailEvents;
  logger?: ReadSideLogger;
}

export interface RelayRunResult {
  /** false when another copy holds the relay lock (nothing was done). */
  leader: boolean;
  /** Messages published by this run. */
  published: number;
  /** The relay's checkpoint after the run (`null` before the first event, or when not leader). */
  checkpoint: AllCheckpoint | null;
}

/**
 * Publishes every tail event from the event store to Kafka (`tailsync.tail-events`), at least
 * once, in order per tail (`TailEventsPublisher`), with the projection runner.
 *
 * - Only one copy relays at a time (`LeaderSession`): if it dies, another copy's next attempt
 *   takes over (within `standbyIntervalMs`).
 * - Batch n + 1 is read and prepared while batch n is being sent; sends and checkpoints stay sequential.
 * - Reads the store only; it never blocks a write.
 */
export class TailEventsRelay {
  readonly topic: string;
  readonly name: string;
  private readonly pool: Pool;
  private readonly checkpoints: ProjectionCheckpoints;
  private readonly session: LeaderSession;
  private readonly runner: ProjectionRunner<TailEventMessages, Client>;

  constructor(pool: Pool, eventStore: EventStore, producer: Pick<Sender, 'send'>, opts: TailEventsRelayOptions = {}) {
    this.pool = pool;
    this.topic = opts.topic ?? TOPICS.tailEvents;
    this.name = opts.name ?? `relay:${this.topic}`;
    const tables = readModelTables(opts.schema);
    const logger = opts.logger ?? consoleLogger;
    this.checkpoints = new ProjectionCheckpoints(tables.checkpoints, this.name);
    this.session = new LeaderSession(pool, advisoryLockKey(`tailsync.relay:${tables.lockScope}:${this.name}`), this.checkpoints, () =>
      logger.log?.(`Tail events relay '${this.name}' is the leader`),
    );
    const publisher = new TailEventsPublisher(eventStore, producer, this.topic, this.checkpoints, Math.max(1024, opts.maxBytesPerSend ?? 512 * 1024));
    this.runner = new ProjectionRunner(this.name, eventStore, this.session, this.checkpoints, publisher, {
      batchSize: Math.max(1, opts.batchSize ?? 1000),
      pollIntervalMs: Math.max(1, opts.pollIntervalMs ?? 50),
      standbyIntervalMs: Math.max(1, opts.standbyIntervalMs ?? 500),
      errorBackoffMs: Math.max(1, opts.errorBackoffMs ?? 1000),
      recentEvents: opts.recentEvents ?? new RecentTailEvents(eventStore),
      logger,
      failing: 'Tail events relay',
      afterRun: (stats) => publisher.afterRun(stats),
    });
  }

  /** true while this copy holds the relay lock. */
  get isLeader(): boolean {
    return this.session.held;
  }

  /** The stored checkpoint. */
  storedCheckpoint(): Promise<AllCheckpoint | null> {
    return this.checkpoints.read(this.pool);
  }

  /** Becomes leader if possible, then publishes batches until caught up (one run at a time). */
  async runOnce(): Promise<RelayRunResult> {
    const stats = await this.runner.catchUpWithStats();
    const leader = this.session.held;
    return { leader, published: leader ? stats.tailEvents : 0, checkpoint: leader ? stats.checkpoint : null };
  }

  /** Wakes the loop now (e.g. right after a write) instead of at the end of its pause. */
  nudge(): void {
    this.runner.nudge();
  }

  /** Starts the relay loop (idempotent). */
  start(): void {
    this.runner.start();
  }

  /** Stops the loop, waits for the batch in flight, releases the lock (another copy takes over). */
  async stop(): Promise<void> {
    await this.runner.stop();
    await this.session.release();
  }
}
