/**
 * `Retry-After` of a receiver (RFC 9110 §10.2.3), honoured on 429 and 503 only. Pure functions.
 */

/** The statuses whose `Retry-After` moves the next attempt (the contract's "Webhooks beyond the interface"). */
export const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

const DELTA_SECONDS = /^\d+$/;
// The three HTTP-date forms: IMF-fixdate, the obsolete RFC 850 form and asctime.
const HTTP_DATES = [
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * How long from `nowMs` a `Retry-After` value asks to wait, in ms; `null` when it is missing,
 * unparsable (a strict check: `Date.parse` alone reads "1" as a year), zero or in the past.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (DELTA_SECONDS.test(text)) {
    const ms = Number(text) * 1000;
    return ms > 0 && Number.isFinite(ms) ? ms : null;
  }
  if (!HTTP_DATES.some((form) => form.test(text))) return null;
  // asctime carries no zone: it is GMT too
  const at = Date.parse(/GMT$/.test(text) ? text : `${text} GMT`);
  if (!Number.isFinite(at) || at <= nowMs) return null;
  return at - nowMs;
}

/**
 * The delay before the next attempt: the schedule's, or longer when the receiver asked for it
 * (`Retry-After` capped at `capMs`). Never shorter than the schedule.
 */
export function delayHonouringRetryAfter(scheduledMs: number, retryAfterMs: number | null, capMs: number): number {
  return retryAfterMs === null ? scheduledMs : Math.max(scheduledMs, Math.min(retryAfterMs, capMs));
}
