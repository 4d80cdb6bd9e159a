import type { ReceivedRequest } from './receiver';

/** How a receiver saw a fifo domain's events arrive. */
export interface ArrivalOrder {
  /** Event ids (`webhook-id`) in the order of their first request. */
  firstSeen: string[];
  /** Events whose first request came before the event ahead of them in `expected` was answered 2xx. */
  overtaking: string[];
}

/**
 * What a receiver of a fifo subscription checks: each event is first seen only after the one
 * before it (in `expected`, the topic's order) was accepted. Repeats (at-least-once) are allowed.
 */
export function arrivalOrder(requests: ReceivedRequest[], expected: string[]): ArrivalOrder {
  const idOf = (r: ReceivedRequest) => String(r.headers['webhook-id']);
  const firstSeen = [...new Set(requests.map(idOf))];
  const firstAt = new Map<string, number>();
  const acceptedAt = new Map<string, number>();
  for (const r of requests) {
    if (!firstAt.has(idOf(r))) firstAt.set(idOf(r), r.n);
    if (r.status !== undefined && r.status >= 200 && r.status < 300 && !acceptedAt.has(idOf(r))) acceptedAt.set(idOf(r), r.n);
  }
  const overtaking = expected.filter((id, k) => k > 0 && (firstAt.get(id) ?? Infinity) < (acceptedAt.get(expected[k - 1]) ?? Infinity));
  return { firstSeen, overtaking };
}
