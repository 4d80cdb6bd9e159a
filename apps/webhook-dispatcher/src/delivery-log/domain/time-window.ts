/** Instants and windows of the delivery log filters and of a recovery. Pure functions. */

// A date (UTC midnight) or a date-time with seconds optional, fractions optional, and Z or an offset.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** The instant an ISO-8601 text names, or undefined when it is not one (or not a real date). */
export function parseInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return undefined;
  // Date.parse rolls 2025-02-30 over to March: a date that does not exist is refused.
  if (new Date(ms).toISOString().slice(0, 10) !== value.slice(0, 10) && !/[+-]\d{2}:\d{2}$/.test(value)) return undefined;
  return new Date(ms);
}

export const MAX_RECOVERY_WINDOW_DAYS = 31;
export const MAX_BACKFILL_DAYS = 7;

/** Where a backfill starts: `since` required, not after `now`, at most {@link MAX_BACKFILL_DAYS} days back. */
export function backfillSince(since: unknown, now: Date): Date | { errors: Record<string, string[]> } {
  const from = parseInstant(since);
  if (from === undefined) return { errors: { since: ['since is required and must be an ISO-8601 date-time (e.g. 2025-06-01T00:00:00Z).'] } };
  if (from > now) return { errors: { since: ['since must not be in the future.'] } };
  if (now.getTime() - from.getTime() > MAX_BACKFILL_DAYS * 86_400_000) return { errors: { since: [`since may be at most ${MAX_BACKFILL_DAYS} days back.`] } };
  return from;
}

/**
 * The window of a recovery: `since` required, `until` defaulting to `now`, `since` before `until`,
 * at most {@link MAX_RECOVERY_WINDOW_DAYS} days. Field errors by field when it is not one.
 */
export function recoveryWindow(since: unknown, until: unknown, now: Date): { since: Date; until: Date } | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const from = parseInstant(since);
  if (from === undefined) errors.since = ['since is required and must be an ISO-8601 date-time (e.g. 2025-06-01T00:00:00Z).'];
  const to = until === undefined || until === null ? now : parseInstant(until);
  if (to === undefined) errors.until = ['until must be an ISO-8601 date-time (e.g. 2025-06-02T00:00:00Z).'];
  if (from && to) {
    if (from >= to) errors.since = ['since must be before until.'];
    else if (to.getTime() - from.getTime() > MAX_RECOVERY_WINDOW_DAYS * 86_400_000) {
      errors.since = [`the window from since to until may span at most ${MAX_RECOVERY_WINDOW_DAYS} days.`];
    }
  }
  return from && to && Object.keys(errors).length === 0 ? { since: from, until: to } : { errors };
}
