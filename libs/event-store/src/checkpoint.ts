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

const PAIR = /^\d+:\d+$/;

/** Compares the unsigned decimal numbers a[aFrom, aTo) and b[bFrom, bTo) (leading zeros allowed). */
function compareDecimals(a: string, aFrom: number, aTo: number, b: string, bFrom: number, bTo: number): number {
  while (aFrom < aTo - 1 && a.charCodeAt(aFrom) === 48) aFrom++;
  while (bFrom < bTo - 1 && b.charCodeAt(bFrom) === 48) bFrom++;
  if (aTo - aFrom !== bTo - bFrom) return aTo - aFrom < bTo - bFrom ? -1 : 1;
  for (; aFrom < aTo; aFrom++, bFrom++) {
    const d = a.charCodeAt(aFrom) - b.charCodeAt(bFrom);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/**
 * -1 / 0 / 1 like a comparator. Compares the digits where they stand: the projection and the
 * relay compare every event they read (parsing both sides into BigInts was 2 % of tail-sync's CPU).
 */
export function comparePairs(a: string, b: string): number {
  if (!PAIR.test(a)) parsePair(a); // throws the malformed-checkpoint error
  if (!PAIR.test(b)) parsePair(b);
  const ca = a.indexOf(':');
  const cb = b.indexOf(':');
  return compareDecimals(a, 0, ca, b, 0, cb) || compareDecimals(a, ca + 1, a.length, b, cb + 1, b.length);
}

export function isPairAtOrAfter(a: AllCheckpoint | null, b: AllCheckpoint): boolean {
  if (a === null) return false;
  return comparePairs(a.value, b.value) >= 0;
}

/** The checkpoint before every event. */
export const ORIGIN_VALUE = '0:0';
