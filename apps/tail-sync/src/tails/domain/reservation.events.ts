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

export type ReservationEvent = TailNumberClaimed | TailNumberReleased | MappedIdClaimed;

/** What a reservation stream says: the tail holding it (`null` when free) and its version. */
export interface Reservation {
  holder: number | null;
  version: number;
}

export const freeReservation: Reservation = { holder: null, version: 0 };

export function evolveReservation(state: Reservation, event: { type: string; data: Record<string, unknown> }): Reservation {
  const version = state.version + 1;
  switch (event.type) {
    case 'TailNumberClaimed':
    case 'MappedIdClaimed':
      return { holder: Number(event.data.tailId), version };
    case 'TailNumberReleased':
      // Only the holder releases; a stale release leaves the current holder in place.
      return { holder: state.holder === Number(event.data.tailId) ? null : state.holder, version };
    default:
      return { ...state, version };
  }
}

export function foldReservation(events: readonly { type: string; data: Record<string, unknown> }[]): Reservation {
  return events.reduce(evolveReservation, freeReservation);
}

export const tailNumberClaimed = (tailId: number): TailNumberClaimed => ({ type: 'TailNumberClaimed', data: { tailId } });
export const tailNumberReleased = (tailId: number): TailNumberReleased => ({ type: 'TailNumberReleased', data: { tailId } });
export const mappedIdClaimed = (tailId: number): MappedIdClaimed => ({ type: 'MappedIdClaimed', data: { tailId } });
