import type { AppendResult, StreamWrite } from '@tailsync/event-store';
import type { Reservation, ReservationEvent } from '../domain/reservation.events';

/** The changes a write makes to one reservation, guarded by the version it was read at. */
export interface ReservationChange {
  /** The reservation's key: its stream id (`tailnumber-…`, `mappedid-…`, see `domain/stream-ids.ts`). */
  key: string;
  /** The version the decision was made on (0: never written). */
  expectedVersion: number;
  /** What happened to it, in order. */
  events: ReservationEvent[];
  /** The reservation after `events`. */
  after: Reservation;
  /** Who did it (domain, actor), as on the tail events. */
  metadata: Record<string, unknown>;
}

/**
 * Where the tail writer keeps the reservations that make "one tail per number per domain" and
 * "one tail per Mapped ID" hold, decided from the event store's append: `write` appends the tail
 * events and applies the reservation changes as one atomic unit, and a concurrent change to any
 * of them makes it throw `WrongExpectedVersionError`, so the command is read and decided again.
 */
export interface ReservationStore {
  /** The reservations of `keys` (free, version 0, when never written). */
  read(keys: string[]): Promise<Map<string, Reservation>>;
  write(tailWrites: StreamWrite[], changes: ReservationChange[]): Promise<AppendResult>;
}
