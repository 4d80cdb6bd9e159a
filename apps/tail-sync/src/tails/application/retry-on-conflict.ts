import { EventStoreUnavailableError, WrongExpectedVersionError } from '@tailsync/event-store';

export interface RetryPolicy {
  /** Attempts per command when concurrent writers conflict (default 10). */
  maxAttempts?: number;
  /**
   * Base of the random pause before a retry, in ms (default 10): before retry n the pause is
   * uniform in [0, min(base * 2^(n-1), 50 * base)) ("full jitter" exponential backoff), which
   * spreads many writers contending for one stream.
   */
  retryJitterMs?: number;
}

/** Attempts of a command while the store is unavailable (each already bounded and resent by the store). */
const UNAVAILABLE_ATTEMPTS = 3;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one attempt, again (after a short random pause) while a concurrent writer wins or the
 * store is unavailable. The store has already resent a timed-out write with the same event ids;
 * what it could not settle is decided again, and claims this command stored meanwhile count as
 * its own (they name its tail or ids from its pool).
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, policy: RetryPolicy = {}): Promise<T> {
  const maxAttempts = policy.maxAttempts ?? 10;
  const jitterMs = policy.retryJitterMs ?? 10;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      const attempts = e instanceof WrongExpectedVersionError ? maxAttempts : e instanceof EventStoreUnavailableError ? UNAVAILABLE_ATTEMPTS : 1;
      if (n >= attempts) throw e;
      await sleep(Math.random() * Math.min(jitterMs * 2 ** (n - 1), jitterMs * 50));
    }
  }
}
