/**
 * The sign-in failure rules (contract: "Abuse and tenant isolation"). A key that blocks (an
 * address, a client id from one address) refuses every attempt once it has `limit` failures in the
 * last minute; a key that only slows (a client id from anywhere) makes its answers wait instead,
 * so failures from many addresses can delay the real client but never lock it out.
 */

/** Slowing starts at this once a slowing key reaches the limit, and doubles with each failure beyond. */
export const FIRST_SLOWDOWN_MS = 250;
/** The longest an answer is slowed: a client that has the right secret still signs in within this. */
export const MAX_SLOWDOWN_MS = 3_000;

/** A counted attempt of the last minute: a failure, or one whose credential is still being checked. */
export interface CountedAttempt {
  ageSeconds: number;
  checking: boolean;
}

/**
 * Seconds until a blocking key with these attempts (oldest first) leaves room for one more; null
 * when it has room now. Attempts still being checked take room too, but only for a moment.
 */
export function blockedForSeconds(attempts: CountedAttempt[], limit: number): number | null {
  if (attempts.length < limit) return null;
  const failures = attempts.filter((a) => !a.checking);
  if (failures.length < limit) return 1;
  // Allowed again once enough failures are older than a minute to leave room for one more.
  return Math.max(1, Math.ceil(60 - failures[failures.length - limit].ageSeconds));
}

/** How long to delay an answer for a slowing key with `failures` in the last minute. */
export function slowdownMs(failures: number, limit: number): number {
  if (failures < limit) return 0;
  return Math.min(MAX_SLOWDOWN_MS, FIRST_SLOWDOWN_MS * 2 ** Math.min(failures - limit, 10));
}
