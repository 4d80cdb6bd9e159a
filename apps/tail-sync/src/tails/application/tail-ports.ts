import type { AllCheckpoint } from '@tailsync/event-store';

/** Tokens of the adapters the handlers need; the tails module binds them. */
export const EVENT_STORE = Symbol('EVENT_STORE');

/** A read model that a command waits for, so its answer is readable by every caller of the domain. */
export interface ProjectionWaiter {
  waitFor(checkpoint: AllCheckpoint, timeoutMs: number): Promise<void>;
}

/** How long a command waits for its effect to be readable before answering 503. */
export const READ_YOUR_WRITES_TIMEOUT_MS = 5000;
