/**
 * Events of the reservation streams (`tailnumber-…`, `mappedid-…`). Internal to the write
 * side: never projected, never published.
 */
export interface TailNumberClaimed {
  type: 'TailNumberClaimed';
  data: { tailId: number };
}
export interface TailNumberReleased {
  type: 'TailNumberReleased';
  data: { tailId: number };
}
export interface MappedIdClaimed {
  type: 'MappedIdClaimed';
  data: { tailId: number };
}

/**
 * A writer takes back a claim it has just stored, because another claim of the same write lost to
 * a concurrent writer (a store not atomic across streams): the key is free again at once, instead
 * of counting as in flight for the lease.
 */
export interface ClaimWithdrawn {
  type: 'ClaimWithdrawn';
  data: { tailId: number };
}

export type ReservationEvent = TailNumberClaimed | TailNumberReleased | MappedIdClaimed | ClaimWithdrawn;

/** What a reservation stream says: the tail holding it (`null` when free) and its version. */
export interface Reservation {
  holder: number | null;
  version: number;
  /**
   * When the holder's claim was recorded, given by stores that write a claim before the events of
   * its tail (not atomic across streams, e.g. EventStoreDB): until that tail holds the claim, the
   * claim may still be being written. Absent where a claim and its tail's events are written as one.
   */
  claimedAt?: Date;
}

export const freeReservation: Reservation = { holder: null, version: 0 };

/** A reservation event as stored (with the time it was recorded) or as just decided (without). */
type ReservationEventLike = { type: string; data: Record<string, unknown>; recordedAt?: Date };

export function evolveReservation(state: Reservation, event: ReservationEventLike): Reservation {
  const version = state.version + 1;
  switch (event.type) {
    case 'TailNumberClaimed':
    case 'MappedIdClaimed': {
      const holder = Number(event.data.tailId);
      return event.recordedAt ? { holder, version, claimedAt: event.recordedAt } : { holder, version };
    }
    case 'TailNumberReleased':
    case 'ClaimWithdrawn':
      // Only the holder releases; a stale release leaves the current holder (and its claim) in place.
      return state.holder === Number(event.data.tailId) ? { holder: null, version } : { ...state, version };
    default:
      return { ...state, version };
  }
}

export function foldReservation(events: readonly ReservationEventLike[]): Reservation {
  return events.reduce(evolveReservation, freeReservation);
}

export const tailNumberClaimed = (tailId: number): TailNumberClaimed => ({ type: 'TailNumberClaimed', data: { tailId } });
export const tailNumberReleased = (tailId: number): TailNumberReleased => ({ type: 'TailNumberReleased', data: { tailId } });
export const claimWithdrawn = (tailId: number): ClaimWithdrawn => ({ type: 'ClaimWithdrawn', data: { tailId } });
export const mappedIdClaimed = (tailId: number): MappedIdClaimed => ({ type: 'MappedIdClaimed', data: { tailId } });
