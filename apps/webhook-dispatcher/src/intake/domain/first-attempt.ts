/**
 * How a consumed event's first attempt is made. Two dispatcher copies never both run one attempt:
 * a copy attempts at once, before its lease is stored, only an event no other copy can be attempting.
 */
export type FirstAttempt =
  /** Stored due later, for the claims: the partition's previous owner may be attempting it. */
  | 'hold'
  /** Attempted now, its lease written behind (WriteBehindLeases). */
  | 'attempt-first'
  /** Stored leased to this copy, then attempted. */
  | 'store-first';

export interface ConsumedEvent {
  /** The event's offset in its partition. */
  offset: bigint;
  /** The partition's high-water mark, asked for just after this copy was given the partition (InheritedOffsets). */
  inheritedBelow: bigint;
}

export interface ConsumerStanding {
  /** Milliseconds since the group coordinator last confirmed this copy's membership (heartbeat or join). */
  sinceConfirmed: number;
  /** Within this, no other copy can have been given this copy's partitions (half the session timeout). */
  trustMs: number;
  /** Valid deliveries in the consumed batch. */
  batchSize: number;
  /** The largest batch attempted first: a steady trickle; bursts are stored first, in large statements. */
  attemptFirstMaxBatch: number;
}

/**
 * 1. An event below the high-water mark at the assignment is one the previous owner may have
 *    read, attempted and not yet stored: `hold` (its late lease write takes the held row over).
 * 2. Otherwise, while the coordinator confirmed this copy's membership within `trustMs`, a small
 *    batch is `attempt-first`: the partition cannot have passed to another copy, which would only
 *    get it after this copy left the group or its session (twice `trustMs`) ran out.
 * 3. Otherwise `store-first`.
 */
export function firstAttemptOf(event: ConsumedEvent, standing: ConsumerStanding): FirstAttempt {
  if (event.offset < event.inheritedBelow) return 'hold';
  if (standing.sinceConfirmed < standing.trustMs && standing.batchSize <= standing.attemptFirstMaxBatch) return 'attempt-first';
  return 'store-first';
}
