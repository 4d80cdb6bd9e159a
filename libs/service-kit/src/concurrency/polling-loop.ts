/**
 * What a turn of a {@link PollingLoop} found: it caught up (pause `idleMs`), there is more to do at
 * once, or it asks for a pause of its own (e.g. a standby copy retrying leadership less often).
 */
export type TurnOutcome = 'caught-up' | 'more' | { pauseMs: number };

export interface PollingLoopOptions {
  /** Pause after a turn that caught up. A `wake()` ends it, also one that came during the turn. */
  idleMs: number;
  /** Pause after a turn that failed (a `wake()` during it ends it too). */
  errorBackoffMs: number;
  /** Told of a failed turn (to log it); the loop goes on after `errorBackoffMs`. */
  onError: (err: unknown) => void;
}

/**
 * One background loop for the read side's pollers (projection catch-up, relay, delivery claims):
 * run a turn, pause, again, until stopped. Turns never overlap; `stop()` waits for the one in flight.
 */
export class PollingLoop {
  private running = false;
  private woken = false;
  private endPause: (() => void) | null = null;
  private done: Promise<void> = Promise.resolve();

  constructor(
    private readonly turn: () => Promise<TurnOutcome>,
    private readonly options: PollingLoopOptions,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts the loop (idempotent); the first turn starts at once. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.done = this.run();
  }

  /** Ends the loop: the pause in progress is cut short, the turn in flight awaited. */
  async stop(): Promise<void> {
    this.running = false;
    this.endPause?.();
    await this.done;
  }

  /** Runs the next turn now instead of at the end of the pause (e.g. right after a write). */
  wake(): void {
    this.woken = true;
    this.endPause?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let pauseMs: number;
      try {
        const outcome = await this.turn();
        if (outcome === 'more') pauseMs = 0;
        else if (outcome === 'caught-up') pauseMs = this.woken ? 0 : this.options.idleMs;
        else pauseMs = outcome.pauseMs;
      } catch (err) {
        this.options.onError(err);
        pauseMs = this.options.errorBackoffMs;
      }
      if (!this.running) break;
      if (pauseMs > 0) await this.pause(pauseMs);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.endPause = null;
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.endPause = end;
    });
  }
}
