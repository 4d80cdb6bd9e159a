import type { AllCheckpoint } from './event-store.port';

/**
 * Both adapters encode a global position as two unsigned integers `"<major>:<minor>"`
 * (PostgreSQL: transaction id and position; EventStoreDB: commit and prepare position),
 * ordered lexicographically as numbers.
 */
export function parsePair(value: string): [bigint, bigint] {
  const m = /^(\d+):(\d+)$/.exec(value);
  if (!m) throw new TypeError(`Malformed event store checkpoint '${value}'`);
  return [BigInt(m[1]), BigInt(m[2])];
}

export function formatPair(major: bigint | string | number, minor: bigint | string | number): string {
  return `${BigInt(major)}:${BigInt(minor)}`;
}

/** -1 / 0 / 1 like a comparator. */
export function comparePairs(a: string, b: string): number {
  const [a1, a2] = parsePair(a);
  const [b1, b2] = parsePair(b);
  if (a1 !== b1) return a1 < b1 ? -1 : 1;
  if (a2 !== b2) return a2 < b2 ? -1 : 1;
  return 0;
}

export function isPairAtOrAfter(a: AllCheckpoint | null, b: AllCheckpoint): boolean {
  if (a === null) return false;
  return comparePairs(a.value, b.value) >= 0;
}

/** The checkpoint before every event. */
export const ORIGIN_VALUE = '0:0';
