import type { Reservation } from '../../domain/reservation.events';

/**
 * How long a claim whose tail does not hold it is taken as still being written by another writer;
 * after that, as left behind by a writer that stopped (and free again). Claims and tail events are
 * written milliseconds apart, and a writer gives up on its tail events once half of this has passed
 * since its claims (`StreamReservations`).
 */
export const CLAIM_LEASE_MS = 30_000;

/**
 * A claim naming a tail that does not hold it is either one a writer is still completing (another
 * writer must wait, or two tails could end up holding one number) or one a stopped writer left
 * behind (free once its lease has run out). Only claims with a `claimedAt` can be in flight.
 */
export function claimMayBeInFlight(reservation: Reservation, now: Date, leaseMs = CLAIM_LEASE_MS): boolean {
  return reservation.claimedAt !== undefined && now.getTime() - reservation.claimedAt.getTime() < leaseMs;
}
