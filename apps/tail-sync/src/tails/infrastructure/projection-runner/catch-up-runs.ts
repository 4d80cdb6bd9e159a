import type { AllCheckpoint, EventStore } from '@tailsync/event-store';
import { CheckpointWaiters } from './checkpoint-waiters';
import { ProjectionStoppedError, ProjectionTimeoutError } from './projection-errors';
import { noStats, type CatchUpStats } from './projection-writer';

const noop = () => undefined;

/**
 * A reader's runs, single flight: a call while a run is in flight waits for the next run (started
 * after it), and concurrent callers share it; and the callers waiting for a checkpoint
 * ("a read after a command's response reflects it"), settled as runs move the checkpoint.
 */
export class CatchUpRuns {
  /** The newest checkpoint this process knows the reader has reached. */
  private known: AllCheckpoint | null = null;
  private readonly waiters = new CheckpointWaiters((target) => this.reached(target));
  private inFlight: Promise<CatchUpStats> | null = null;
  private queued: Promise<CatchUpStats> | null = null;
  private queuedForWaitersOnly = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private runCount = 0;
  /** Why the last run failed (until one succeeds): told to waiters that time out. */
  lastError: unknown = undefined;

  constructor(
    private readonly name: string,
    private readonly store: Pick<EventStore, 'isAtOrAfter'>,
    private readonly run: () => Promise<CatchUpStats>,
    private readonly retryDelayMs: number,
  ) {}

  get checkpoint(): AllCheckpoint | null {
    return this.known;
  }

  get count(): number {
    return this.runCount;
  }

  get pendingWaiters(): number {
    return this.waiters.size;
  }

  /** Whether a waiter's checkpoint is still ahead. */
  anyWaiterAhead(): boolean {
    return this.waiters.anyAhead();
  }

  /** Resolves once a run has reached `checkpoint`, starting runs as needed. */
  waitFor(checkpoint: AllCheckpoint | null, timeoutMs: number): Promise<void> {
    if (checkpoint === null || this.reached(checkpoint)) return Promise.resolve();
    const waiting = this.waiters.add(checkpoint, timeoutMs, () => new ProjectionTimeoutError(this.name, checkpoint, this.known, timeoutMs, this.lastError));
    this.schedule(true).catch(noop);
    return waiting;
  }

  /**
   * A run that starts after this call: a new one when idle, else the one queued behind the run in
   * flight. `forWaiters`: only for `waitFor`'s waiters. When every caller of the queued run was,
   * and the run in flight reached all their checkpoints (its read came after their appends), the
   * queued run is not started: it would read nothing (a third of the runs under single PUTs).
   */
  schedule(forWaiters = false): Promise<CatchUpStats> {
    if (this.queued) {
      if (!forWaiters) this.queuedForWaitersOnly = false;
      return this.queued;
    }
    if (!this.inFlight) return this.launch(this.run);
    this.queuedForWaitersOnly = forWaiters;
    const queued = this.inFlight.then(noop, noop).then(() => {
      this.queued = null;
      if (this.queuedForWaitersOnly && !this.waiters.anyAhead()) return noStats(this.known);
      return this.launch(this.run);
    });
    this.queued = queued;
    return queued;
  }

  /** Runs `exclusive` (a rebuild) once no run is in flight or queued, as the run in flight. */
  async alone(exclusive: () => Promise<CatchUpStats>): Promise<CatchUpStats> {
    while (this.inFlight || this.queued) await Promise.allSettled([this.inFlight, this.queued]);
    return this.launch(exclusive);
  }

  /** The reader has reached `cp` (never moves back, except by `restart`). */
  advance(cp: AllCheckpoint | null): void {
    if (cp === null) return;
    if (this.known === null || this.store.isAtOrAfter(cp, this.known)) this.known = cp;
    this.waiters.settle();
  }

  /** The reader starts again at `cp` (a rebuild). */
  restart(cp: AllCheckpoint | null): void {
    this.known = cp;
  }

  /** Rejects pending waiters and waits for the runs in flight. */
  async stop(): Promise<void> {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    this.waiters.rejectAll(new ProjectionStoppedError(this.name));
    await Promise.allSettled([this.inFlight, this.queued].filter(Boolean));
  }

  private reached(target: AllCheckpoint): boolean {
    return this.store.isAtOrAfter(this.known, target);
  }

  private launch(body: () => Promise<CatchUpStats>): Promise<CatchUpStats> {
    this.runCount++;
    const run = body().finally(() => {
      if (this.inFlight === run) this.inFlight = null;
      this.afterRun();
    });
    this.inFlight = run;
    return run;
  }

  /** Waiters whose events were not visible yet: try again shortly (bounded by their timeouts). */
  private afterRun(): void {
    this.waiters.settle();
    if (this.waiters.size === 0 || this.queued || this.retryTimer) return;
    const delay = this.lastError ? Math.max(50, this.retryDelayMs) : this.retryDelayMs;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.waiters.size > 0) this.schedule(true).catch(noop);
    }, delay);
  }
}
