/** Statuses that say the receiver is overwhelmed (contract: "Flow control"). */
const OVERLOADED = new Set([502, 503, 504]);

/**
 * How an attempt's answer moves an uncapped domain's in-flight allowance: a 502, 503 or 504, or a
 * 429 without a valid Retry-After (one with it already delays the retry), halves it; a success
 * gives the full allowance back; anything else leaves it.
 */
export function nextAllowance(current: number, full: number, answer: { statusCode: number | null; retryAfterGiven: boolean }): number {
  const { statusCode } = answer;
  if (statusCode !== null && (OVERLOADED.has(statusCode) || (statusCode === 429 && !answer.retryAfterGiven))) return Math.max(1, Math.floor(current / 2));
  if (statusCode !== null && statusCode >= 200 && statusCode <= 299) return full;
  return current;
}
