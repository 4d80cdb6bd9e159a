import { advisoryLockKey, LeaderLock, PollingLoop } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import type { Message } from 'kafkajs';
import { Counter, Gauge } from 'prom-client';
import { TOPICS } from '@tailsync/contracts';
import type { AllCheckpoint, EventStore } from '@tailsync/event-store';
import { metricsRegistry, type Sender } from '@tailsync/service-kit';
import { tailIdOfStream } from '../../domain/stream-ids';
import {
  consoleLogger,
  inGlobalOrder,
  readModelTables,
  storeCheckpointSql,
  type ReadModelTables,
  type ReadSideLogger,
} from '../read-model/read-model.tables';
import { RecentTailEvents } from '../recent-tail-events';
import { historiesInBatch, mappedIdsAfterEachVersion, tailEventMessages } from './tail-messages.fold';
import { endPublishSpans, startPublishSpans } from './publish-spans';

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

const published = (): Counter => {
  const name = 'tailsync_tail_events_published_total';
  return (
    (metricsRegistry.getSingleMetric(name) as Counter | undefined) ??
    new Counter({ name, help: 'Tail events published to Kafka by the relay', registers: [metricsRegistry] })
  );
};
const lagSeconds = (): Gauge => {
  const name = 'tailsync_tail_events_relay_lag_seconds';
  return (
    (metricsRegistry.getSingleMetric(name) as Gauge | undefined) ??
    new Gauge({
      name,
      help: 'Age (recording to publication) of the newest tail event the relay published',
      registers: [metricsRegistry],
    })
  );
};

const noop = () => undefined;

interface PreparedBatch {
  /** Events the read returned (the batch is full when this equals the batch size). */
  read: number;
  checkpoint: AllCheckpoint | null;
  /** Messages in global order, split by size; sent one chunk after the other. */
  chunks: Message[][];
  published: number;
  /** Recording time of the newest event (lag metric). */
  newest: Date | null;
}

/**
 * Publishes every tail event from the event store to Kafka (`tailsync.tail-events`), keyed
 * `<domain>:<tailId>`, at least once, in order per tail.
 *
 * - Only one copy relays at a time: it holds a session-level `pg_try_advisory_lock` on a
 *   dedicated connection (not taken from the pool). If that copy dies its session ends, the lock
 *   is released and another copy's next attempt takes over (within `standbyIntervalMs`).
 * - Per batch: read after the stored checkpoint, `send` with `acks: -1` (sequential sends, so a
 *   tail's events stay in order), then store the checkpoint through the lock connection. A crash
 *   between the two republishes that batch only (consumers dedupe on `eventId`).
 * - Reads the store only; it never blocks a write.
 */
export class TailEventsRelay {
  readonly topic: string;
  readonly name: string;
  private readonly tables: ReadModelTables;
  private readonly batchSize: number;
  private readonly standbyIntervalMs: number;
  private readonly maxBytesPerSend: number;
  private readonly logger: ReadSideLogger;
  private readonly lock: LeaderLock;
  private readonly loop: PollingLoop;
  private readonly recentEvents: RecentTailEvents;
  private readonly publishedTotal = published();
  private readonly lag = lagSeconds();

  /** The stored checkpoint as this copy last read or wrote it while leader (only the leader writes it). */
  private leaderCheckpoint: AllCheckpoint | null | undefined;
  private running: Promise<RelayRunResult> | null = null;
  private stopRequested = false;

  constructor(
    private readonly pool: Pool,
    private readonly eventStore: EventStore,
    private readonly producer: Pick<Sender, 'send'>,
    opts: TailEventsRelayOptions = {},
  ) {
    this.topic = opts.topic ?? TOPICS.tailEvents;
    this.name = opts.name ?? `relay:${this.topic}`;
    this.tables = readModelTables(opts.schema);
    this.batchSize = Math.max(1, opts.batchSize ?? 1000);
    this.standbyIntervalMs = Math.max(1, opts.standbyIntervalMs ?? 500);
    this.maxBytesPerSend = Math.max(1024, opts.maxBytesPerSend ?? 512 * 1024);
    this.logger = opts.logger ?? consoleLogger;
    this.recentEvents = opts.recentEvents ?? new RecentTailEvents(eventStore);
    this.lock = new LeaderLock(pool, advisoryLockKey(`tailsync.relay:${this.tables.lockScope}:${this.name}`), {
      // Its checkpoint writes need not wait for the disk: a checkpoint lost in a database crash
      // only means events published again (at-least-once).
      sessionSql: 'set synchronous_commit = off',
      onAcquired: () => {
        this.leaderCheckpoint = undefined;
        this.logger.log?.(`Tail events relay '${this.name}' is the leader`);
      },
    });
    this.loop = new PollingLoop(
      async () => ((await this.runOnce()).leader ? 'caught-up' : { pauseMs: this.standbyIntervalMs }),
      {
        idleMs: Math.max(1, opts.pollIntervalMs ?? 50),
        errorBackoffMs: Math.max(1, opts.errorBackoffMs ?? 1000),
        onError: (err) => this.logger.error(`Tail events relay failed: ${(err as Error).message}`, (err as Error).stack),
      },
    );
  }

  /** true while this copy holds the relay lock. */
  get isLeader(): boolean {
    return this.lock.held;
  }

  /** The stored checkpoint. */
  async storedCheckpoint(): Promise<AllCheckpoint | null> {
    const { rows } = await this.pool.query<{ checkpoint: string }>(`select checkpoint from ${this.tables.checkpoints} where name = $1`, [
      this.name,
    ]);
    return rows[0] ? { value: rows[0].checkpoint } : null;
  }

  /**
   * Becomes leader if possible, then publishes batches until caught up. Single-flight: a call
   * while a run is in flight returns that run's result.
   */
  runOnce(): Promise<RelayRunResult> {
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /** Wakes the loop now (e.g. right after a write) instead of at the end of its pause. */
  nudge(): void {
    this.loop.wake();
  }

  /** Starts the relay loop (idempotent). */
  start(): void {
    if (this.loop.isRunning) return;
    this.stopRequested = false;
    this.loop.start();
  }

  /** Stops the loop, waits for the batch in flight, releases the lock (another copy takes over). */
  async stop(): Promise<void> {
    this.stopRequested = true;
    await this.loop.stop();
    await this.running?.catch(noop);
    await this.lock.release();
  }

  // ---------------------------------------------------------------------------------------------

  private async run(): Promise<RelayRunResult> {
    const client = await this.lock.acquire();
    if (!client) return { leader: false, published: 0, checkpoint: null };
    try {
      if (this.leaderCheckpoint === undefined) {
        const { rows } = await client.query<{ checkpoint: string }>(`select checkpoint from ${this.tables.checkpoints} where name = $1`, [
          this.name,
        ]);
        this.leaderCheckpoint = rows[0] ? { value: rows[0].checkpoint } : null;
      }
      let checkpoint = this.leaderCheckpoint;
      let count = 0;
      // Batch n + 1 is read and prepared while batch n is being sent; sends (and checkpoints) stay sequential.
      let next = this.prepare(checkpoint);
      for (;;) {
        const batch = await next;
        if (batch.read === 0 || !batch.checkpoint) {
          // Nothing to publish, but the store may have scanned past other streams' events: kept,
          // so that neither the next poll nor a restart scans them again.
          if (batch.checkpoint && !this.eventStore.isAtOrAfter(checkpoint, batch.checkpoint)) {
            await client.query(storeCheckpointSql(this.tables), [this.name, batch.checkpoint.value]);
            checkpoint = this.leaderCheckpoint = batch.checkpoint;
          }
          break;
        }
        const more = batch.read === this.batchSize && !this.stopRequested;
        if (more) {
          next = this.prepare(batch.checkpoint);
          next.catch(noop); // awaited on the next turn; a failure of this turn must not leave it unhandled
        }
        for (const chunk of batch.chunks) await this.send(chunk);
        await client.query(storeCheckpointSql(this.tables), [this.name, batch.checkpoint.value]);
        checkpoint = this.leaderCheckpoint = batch.checkpoint;
        count += batch.published;
        if (batch.newest) {
          this.publishedTotal.inc(batch.published);
          this.lag.set(Math.max(0, (Date.now() - batch.newest.getTime()) / 1000));
        }
        if (!more) break;
      }
      if (count === 0) this.lag.set(0);
      return { leader: true, published: count, checkpoint };
    } catch (err) {
      // Connection lost, Kafka down...: give the lock up; the next attempt (this copy or another) starts
      // again from the stored checkpoint.
      await this.lock.release();
      throw err;
    }
  }

  /**
   * Reads the batch after `after` and builds its messages (in global order), each with the tail's
   * Mapped IDs after the event: the batch's tail streams that did not start in it are read in one
   * `readStreams` call.
   */
  private async prepare(after: AllCheckpoint | null): Promise<PreparedBatch> {
    const read = await this.recentEvents.readAfter(after, this.batchSize);
    const { events: all, checkpoint } = inGlobalOrder(this.eventStore, read, this.batchSize);
    const events = all.filter((e) => tailIdOfStream(e.streamId) !== null);
    const prepared: PreparedBatch = { read: all.length, checkpoint, chunks: [], published: events.length, newest: null };
    if (events.length === 0) return prepared;
    prepared.newest = events[events.length - 1].recordedAt;

    const { histories, toRead } = historiesInBatch(events);
    if (toRead.length > 0) for (const [streamId, history] of await this.eventStore.readStreams(toRead)) histories.set(streamId, history);
    const mappedIdsAt = new Map<string, string[][]>();
    for (const [streamId, history] of histories) mappedIdsAt.set(streamId, mappedIdsAfterEachVersion(history));
    prepared.chunks = tailEventMessages(events, mappedIdsAt, this.maxBytesPerSend);
    return prepared;
  }

  private async send(messages: Message[]): Promise<void> {
    const spans = startPublishSpans(this.topic, messages);
    try {
      await this.producer.send({ topic: this.topic, acks: -1, messages });
    } catch (error) {
      endPublishSpans(spans, error);
      throw error;
    }
    endPublishSpans(spans);
  }
}
