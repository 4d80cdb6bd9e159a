import { WrongExpectedVersionError, type AppendResult, type StreamWrite } from '@tailsync/event-store';
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

/** An append of tail events and reservation changes, as stored. */
export interface TailAppend extends AppendResult {
  /**
   * The read model already shows every tail the append wrote (its rows were written in the
   * append's transaction): a command need not wait for the projection to reach `checkpoint`.
   */
  readModelCurrent: boolean;
}

/**
 * Where the write side keeps the reservations that make "one tail per number per domain" and
 * "one tail per Mapped ID" hold, decided from the event store's append: `write` appends the tail
 * events and applies the reservation changes as one atomic unit, and a concurrent change to any
 * of them makes it throw `WrongExpectedVersionError`, so the command is read and decided again.
 */
export interface ReservationStore {
  /** The reservations of `keys` (free, version 0, when never written). */
  read(keys: string[]): Promise<Map<string, Reservation>>;
  /**
   * Whether a claim its tail does not hold may still be being written by another writer (only a
   * store that writes claims before their tail's events has such claims; it decides for how long).
   */
  mayBeInFlight(reservation: Reservation, now: Date): boolean;
  write(tailWrites: StreamWrite[], changes: ReservationChange[]): Promise<TailAppend>;
}

/**
 * A reservation names a tail that does not hold it, and the writer that claimed it may still be
 * writing that tail's events (a store not atomic across streams; see `ReservationStore.mayBeInFlight`). A
 * version conflict in all but name: the command is read and decided again after a short pause.
 */
export class ReservationInFlight extends WrongExpectedVersionError {
  constructor(key: string, version: number) {
    super(key, version, version);
    this.name = 'ReservationInFlight';
    this.message = `reservation '${key}' is claimed by a write that may still be in flight`;
  }
}
