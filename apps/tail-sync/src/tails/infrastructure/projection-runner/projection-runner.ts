import { PollingLoop } from '@tailsync/service-kit';
import type { ClientBase } from 'pg';
import type { AllCheckpoint, EventStore, StoredEvent } from '@tailsync/event-store';
import { RecentTailEvents, TAIL_STREAMS } from '../recent-tail-events';
import { CatchUpRuns } from './catch-up-runs';
import { inGlobalOrder } from './in-global-order';
import type { ProjectionCheckpoints } from './projection-checkpoints';
import type { ProjectionSession } from './projection-session';
import { noStats, type CatchUpStats, type ProjectionWriter } from './projection-writer';
import type { ReadSideLogger } from './read-side-logger';

export interface ProjectionRunnerOptions {
  /** Events read (and written) per batch. */
  batchSize: number;
  /** Pause of the background loop (`start()`) when caught up; `nudge()` cuts it short. */
  pollIntervalMs: number;
  /** Pause of the loop while another copy holds the projection. Default: `pollIntervalMs`. */
  standbyIntervalMs?: number;
  /** Pause of the loop after a failure. Default: `pollIntervalMs`. */
  errorBackoffMs?: number;
  /** Pause before catching up again while a waiter's event is not visible yet. Default 2 ms. */
  retryDelayMs?: number;
  /** Where catch-ups read the tail events: shared by the app's readers (one read per event). */
  recentEvents: RecentTailEvents;
  logger: ReadSideLogger;
  /** What failed, as the log says it (`<failing> failed: <error>`), e.g. `Tail events relay`. */
  failing: string;
  /** Told of every run this copy did (metrics). */
  afterRun?: (stats: CatchUpStats) => void;
}

interface ReadBatch<Batch> {
  events: StoredEvent[];
  checkpoint: AllCheckpoint | null;
  batch: Batch;
}

const noop = () => undefined;

/**
 * Reads the event store after a stored checkpoint, batch by batch, and hands each batch to a
 * writer, which stores the new checkpoint with what it writes: the one loop of every reader of the
 * store in tail-sync (the read model, the relay).
 *
 * - Runs are single-flight: a call while a run is in flight waits for the next run (started after
 *   it), and concurrent callers share it. A full batch's successor is read while it is written.
 * - `waitFor(checkpoint)` lets a command answer once its effect is applied.
 * - `rebuild` replays every event in one transaction (`BatchTransactions` sessions).
 */
export class ProjectionRunner<Batch, Client extends ClientBase = ClientBase> {
  private readonly loop: PollingLoop;
  private readonly catchUps: CatchUpRuns;
  private stopping = false;

  constructor(
    /** Names the reader in its checkpoint row, logs and errors. */
    readonly name: string,
    protected readonly eventStore: EventStore,
    private readonly session: ProjectionSession<Client>,
    protected readonly checkpoints: ProjectionCheckpoints,
    private readonly writer: ProjectionWriter<Batch>,
    private readonly options: ProjectionRunnerOptions,
  ) {
    this.catchUps = new CatchUpRuns(name, eventStore, () => this.run(), Math.max(0, options.retryDelayMs ?? 2));
    const standbyMs = options.standbyIntervalMs ?? options.pollIntervalMs;
    this.loop = new PollingLoop(
      async () => {
        await this.catchUps.schedule();
        return this.session.held ? 'caught-up' : { pauseMs: standbyMs };
      },
      {
        idleMs: options.pollIntervalMs,
        errorBackoffMs: options.errorBackoffMs ?? options.pollIntervalMs,
        onError: (err) => options.logger.error(`${options.failing} failed: ${(err as Error).message}`, (err as Error).stack),
      },
    );
  }

  /** The checkpoint this process last saw the projection at (no I/O). */
  get checkpoint(): AllCheckpoint | null {
    return this.catchUps.checkpoint;
  }

  /** Catch-up runs started by this instance (each runs one or more batches). */
  get runs(): number {
    return this.catchUps.count;
  }

  /** Waiters currently pending. */
  get pendingWaiters(): number {
    return this.catchUps.pendingWaiters;
  }

  /** Applies every event visible in the store after the stored checkpoint; returns the checkpoint reached. */
  async catchUp(): Promise<AllCheckpoint | null> {
    return (await this.catchUps.schedule()).checkpoint;
  }

  /** Like `catchUp`, with what the run did. */
  catchUpWithStats(): Promise<CatchUpStats> {
    return this.catchUps.schedule();
  }

  /**
   * Resolves once the projection has applied everything up to `checkpoint` (immediately for
   * `null`), catching up as needed; rejects with `ProjectionTimeoutError` after `timeoutMs`.
   */
  waitFor(checkpoint: AllCheckpoint | null, timeoutMs = 10_000): Promise<void> {
    return this.catchUps.waitFor(checkpoint, timeoutMs);
  }

  /** Starts the background loop (idempotent): it catches up with what other copies wrote. */
  start(): void {
    this.loop.start();
  }

  /** Wakes the loop now (e.g. right after a write) instead of at the end of its pause. */
  nudge(): void {
    this.loop.wake();
  }

  /** Stops the loop, ends a run in flight after its batch, rejects pending waiters. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([this.loop.stop(), this.catchUps.stop()]);
    this.stopping = false;
  }

  /**
   * Empties the projection (`empty`) and its checkpoint and replays every event, in ONE batch
   * transaction: readers keep seeing the old rows until it commits, and other copies' catch-ups
   * wait for it. Then catches up with what was written meanwhile.
   */
  protected async rebuildWith(empty: (client: Client) => Promise<unknown>): Promise<CatchUpStats> {
    const stats = await this.catchUps.alone(() => this.replay(empty));
    const after = await this.catchUps.schedule();
    return {
      batches: stats.batches + after.batches,
      events: stats.events + after.events,
      tailEvents: stats.tailEvents + after.tailEvents,
      checkpoint: after.checkpoint ?? stats.checkpoint,
    };
  }

  private async run(): Promise<CatchUpStats> {
    const client = await this.session.open();
    if (!client) return noStats(this.catchUps.checkpoint);
    let stats: CatchUpStats;
    try {
      stats = await this.batches(client);
    } catch (err) {
      this.catchUps.lastError = err;
      await this.session.abandon(client);
      throw err;
    }
    this.catchUps.lastError = undefined;
    await this.session.close(client);
    this.options.afterRun?.(stats);
    return stats;
  }

  /**
   * Batches until the store has nothing more.
   *
   * Reads are filtered to the tail streams (a third of the events of a create). A filtered read
   * only advances the checkpoint to the last tail event, though, so a command whose append ends
   * with a reservation event (a renumber ends with `TailNumberReleased`) would not be reached by
   * `waitFor` until the next tail event. So when the filtered reads are done and a waiter is still
   * short of its checkpoint, the run reads on unfiltered (writers skip non-tail events), which
   * carries the checkpoint past those events.
   */
  private async batches(client: Client): Promise<CatchUpStats> {
    const stats = noStats(this.catchUps.checkpoint);
    let unfiltered = false;
    let next: { after: AllCheckpoint; read: Promise<ReadBatch<Batch>> } | null = null;
    for (;;) {
      const from = await this.session.begin(client);
      this.catchUps.advance(from);
      stats.checkpoint = from;
      // A read made ahead is used when no other copy moved the checkpoint meanwhile.
      const ahead: Promise<ReadBatch<Batch>> | null = next !== null && next.after.value === from?.value ? next.read : null;
      next = null;
      const { events, checkpoint, batch }: ReadBatch<Batch> = await (ahead ?? this.read(from, unfiltered));
      const full = events.length === this.batchSize;
      if (events.length > 0 && checkpoint) {
        if (full && !this.stopping) next = { after: checkpoint, read: this.read(checkpoint, false) };
        next?.read.catch(noop); // awaited on the next turn; a failure of this turn must not leave it unhandled
        stats.tailEvents += await this.writer.write(client, batch, checkpoint);
        await this.session.commit(client, checkpoint);
        stats.batches++;
        stats.events += events.length;
        stats.checkpoint = checkpoint;
        this.catchUps.advance(checkpoint);
      } else {
        // No event, but the store may have scanned past other streams' events: kept, so that
        // neither the next run nor a restart scans them again.
        const scanned = checkpoint && !this.eventStore.isAtOrAfter(from, checkpoint) ? checkpoint : null;
        if (scanned) {
          await this.checkpoints.store(client, scanned);
          stats.checkpoint = scanned;
          this.catchUps.advance(scanned);
        }
        await this.session.commit(client, scanned ?? from);
      }
      if (full) {
        if (this.stopping) break;
        unfiltered = false;
        continue;
      }
      if (unfiltered || !this.catchUps.anyWaiterAhead()) break;
      unfiltered = true;
    }
    return stats;
  }

  private get batchSize(): number {
    return this.options.batchSize;
  }

  private async read(after: AllCheckpoint | null, unfiltered: boolean): Promise<ReadBatch<Batch>> {
    const read = unfiltered ? await this.eventStore.readAll(after, this.batchSize) : await this.options.recentEvents.readAfter(after, this.batchSize);
    const { events, checkpoint } = inGlobalOrder(this.eventStore, read, this.batchSize);
    return { events, checkpoint, batch: await this.writer.prepare(events) };
  }

  /** The replay of `rebuildWith`, in one transaction. */
  private async replay(empty: (client: Client) => Promise<unknown>): Promise<CatchUpStats> {
    const client = await this.session.open();
    if (!client) throw new Error(`'${this.name}' is held by another copy: it cannot be rebuilt now`);
    const stats = noStats(null);
    try {
      await this.session.begin(client);
      await empty(client);
      await this.checkpoints.remove(client);
      for (;;) {
        const read = await this.eventStore.readAll(stats.checkpoint, this.batchSize, TAIL_STREAMS);
        const { events, checkpoint } = inGlobalOrder(this.eventStore, read, this.batchSize);
        if (events.length === 0 || !checkpoint) break;
        stats.tailEvents += await this.writer.write(client, await this.writer.prepare(events), checkpoint);
        stats.batches++;
        stats.events += events.length;
        stats.checkpoint = checkpoint;
        if (events.length < this.batchSize) break;
      }
      await this.session.commit(client, stats.checkpoint);
    } catch (err) {
      await this.session.abandon(client);
      throw err;
    }
    await this.session.close(client);
    this.catchUps.restart(stats.checkpoint);
    return stats;
  }
}
