import type { AllCheckpoint } from '@tailsync/event-store';

interface Waiter {
  target: AllCheckpoint;
  resolve: () => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Callers waiting until a reader (the projection) has reached a checkpoint: each resolves once
 * `reached(target)` holds at a `settle()`, or rejects when its time is up or on `rejectAll`.
 */
export class CheckpointWaiters {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly reached: (target: AllCheckpoint) => boolean) {}

  get size(): number {
    return this.waiters.size;
  }

  /** Waits for `target`; after `timeoutMs` rejects with what `timedOut` builds then. */
  add(target: AllCheckpoint, timeoutMs: number, timedOut: () => Error): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        target,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(timedOut());
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Resolves the waiters whose checkpoint has been reached. */
  settle(): void {
    if (this.waiters.size === 0) return;
    for (const w of this.waiters) {
      if (this.reached(w.target)) {
        clearTimeout(w.timer);
        this.waiters.delete(w);
        w.resolve();
      }
    }
  }

  /** Whether a waiter's checkpoint is still ahead. */
  anyAhead(): boolean {
    for (const w of this.waiters) if (!this.reached(w.target)) return true;
    return false;
  }

  rejectAll(err: Error): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(err);
    }
    this.waiters.clear();
  }
}
