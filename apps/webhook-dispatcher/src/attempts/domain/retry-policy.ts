/**
 * Retry policy of webhook deliveries (contract, "Events and delivery"). Pure functions, no I/O.
 *
 * Delays after attempt 1: 2, 4, 8, … 256 s — 8 delays, so 9 attempts spread over 510 s (≈ 8.5 min).
 * `WEBHOOK_RETRY_DELAYS_MS` (a comma list of N delays → N + 1 attempts) overrides it.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000]);

/** The largest delay accepted: the longest a Node timer can wait (about 24.8 days). */
export const MAX_RETRY_DELAY_MS = 2_147_483_647;

/**
 * Parses `WEBHOOK_RETRY_DELAYS_MS`. Unset or blank → a copy of the defaults. Otherwise a comma list
 * of non-negative integers (milliseconds; spaces around items allowed), e.g. `"50,100,200"`.
 * Throws an Error naming the variable on anything else (empty items, signs, decimals, units…).
 */
export function parseRetryDelays(env?: string): number[] {
  if (env === undefined || env.trim() === '') return [...DEFAULT_RETRY_DELAYS_MS];
  const items = env.split(',').map((item) => item.trim());
  return items.map((item, index) => {
    if (!/^\d+$/.test(item)) {
      throw new Error(
        `WEBHOOK_RETRY_DELAYS_MS must be a comma-separated list of non-negative integers (milliseconds), ` +
          `e.g. "2000,4000,8000"; item ${index + 1} is ${item === '' ? 'empty' : JSON.stringify(item)}`,
      );
    }
    const value = Number(item);
    if (value > MAX_RETRY_DELAY_MS) {
      throw new Error(`WEBHOOK_RETRY_DELAYS_MS item ${index + 1} (${item}) exceeds the maximum of ${MAX_RETRY_DELAY_MS} ms`);
    }
    return value;
  });
}

/** `410 Gone`: the endpoint says it will never take callbacks again, so its subscription is disabled. */
export const GONE_STATUS = 410;

/** What came of one attempt: the response status, or why there was none. */
export interface AttemptOutcome {
  /** HTTP status of the response, when one arrived. */
  statusCode?: number;
  /**
   * Why no response arrived: `'timeout'` (the 10 s attempt timeout or a socket time-out),
   * `'connection'` (refused, reset, DNS failure, TLS failure…), or another code. Codes in
   * {@link PERMANENT_ERRORS} are not retried; any other error counts as the endpoint being
   * unreachable, which is retried.
   */
  error?: 'timeout' | 'connection' | (string & {});
}

export type AttemptClassification = 'delivered' | 'retry' | 'give-up';

/**
 * Errors that retrying cannot fix: the URL was refused by policy (SSRF guard) or is unusable.
 * Retrying them would only repeat the refusal.
 */
export const PERMANENT_ERRORS: ReadonlySet<string> = new Set(['ssrf', 'ESSRF', 'invalid-url', 'ERR_INVALID_URL']);

/**
 * Classifies one attempt:
 * - `delivered`: a 2xx response;
 * - `retry` (a temporary problem): 5xx, 408, 429, a time-out, a connection failure or any other
 *   failure to get a response (except {@link PERMANENT_ERRORS});
 * - `give-up`: 3xx (redirects are not followed), every other 4xx (authentication and client
 *   errors), 1xx or a status outside 100–599 (a broken endpoint, not a temporary problem), and the
 *   permanent errors.
 * A status code wins over an error when both are given (a response did arrive).
 */
export function classifyAttempt(outcome: AttemptOutcome): AttemptClassification {
  const { statusCode, error } = outcome;
  if (statusCode !== undefined && statusCode !== null) {
    if (!Number.isInteger(statusCode)) throw new TypeError(`classifyAttempt: statusCode must be an integer, got ${statusCode}`);
    if (statusCode >= 200 && statusCode <= 299) return 'delivered';
    if (statusCode >= 500 && statusCode <= 599) return 'retry';
    if (statusCode === 408 || statusCode === 429) return 'retry';
    return 'give-up';
  }
  if (typeof error === 'string' && error !== '') {
    return PERMANENT_ERRORS.has(error) ? 'give-up' : 'retry';
  }
  throw new TypeError('classifyAttempt: an outcome needs a statusCode or an error');
}

/**
 * The delay before the next attempt, or `null` when none is left. Attempts are numbered from 1;
 * with N delays there are N + 1 attempts: after attempt k (1 ≤ k ≤ N) wait `delays[k - 1]`.
 */
export function nextAttemptDelay(attemptNumberJustMade: number, delays: readonly number[] = DEFAULT_RETRY_DELAYS_MS): number | null {
  if (!Number.isSafeInteger(attemptNumberJustMade) || attemptNumberJustMade < 1) {
    throw new RangeError(`nextAttemptDelay: attempt numbers start at 1, got ${attemptNumberJustMade}`);
  }
  return attemptNumberJustMade <= delays.length ? delays[attemptNumberJustMade - 1] : null;
}

/** Total number of attempts a schedule allows (N delays → N + 1). */
export function maxAttempts(delays: readonly number[] = DEFAULT_RETRY_DELAYS_MS): number {
  return delays.length + 1;
}
