import { Inject, Injectable } from '@nestjs/common';
import type { AllCheckpoint, EventStore, StoredEvent, StreamWrite } from '@tailsync/event-store';
import type { Reservation } from '../domain/reservation.events';
import { tailStreamId } from '../domain/stream-ids';
import { evolve } from '../domain/tail.decider';
import { toTailEvent } from '../domain/tail.events';
import type { TailState } from '../domain/tail.state';
import type { ReservationChange, ReservationStore } from './reservation-store';
import { EVENT_STORE, RESERVATION_STORE } from './tail-ports';

/** A tail stream as read: its state, version (0 = absent) and the position of its newest event. */
export interface LoadedTail {
  state: TailState | null;
  version: number;
  position: string | null;
}

/**
 * The write side's repository: tail streams and the reservations that guard them, read by the
 * use cases and written by `append`, one atomic unit with the versions they were read at.
 */
@Injectable()
export class TailStreams {
  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(RESERVATION_STORE) private readonly reservationStore: ReservationStore,
  ) {}

  /** The reservations of `keys` (free, version 0, when never written). One round trip. */
  reservations(keys: string[]): Promise<Map<string, Reservation>> {
    return this.reservationStore.read(keys);
  }

  /** The tails of `tailIds`, folded from their streams. One round trip. */
  async tails(tailIds: Iterable<number>): Promise<Map<number, LoadedTail>> {
    const ids = [...tailIds];
    const streams = await this.eventStore.readStreams(ids.map(tailStreamId));
    return new Map(ids.map((id) => [id, loadTail(streams.get(tailStreamId(id)))]));
  }

  async tail(tailId: number): Promise<LoadedTail> {
    return loadTail(await this.eventStore.readStream(tailStreamId(tailId)));
  }

  /** Whether a claim its tail does not hold may still be being written by another writer (the store decides). */
  claimMayBeInFlight(reservation: Reservation, now: Date): boolean {
    return this.reservationStore.mayBeInFlight(reservation, now);
  }

  /**
   * Appends the tail events and applies the reservation changes as one unit; a concurrent change
   * to any of them throws `WrongExpectedVersionError`, and the command is read and decided again.
   * Returns where what it wrote is readable: the append's checkpoint, for the projection to reach,
   * or null when the read model already shows it (the store wrote the rows with the append).
   */
  async append(tailWrites: StreamWrite[], changes: ReservationChange[]): Promise<AllCheckpoint | null> {
    const appended = await this.reservationStore.write(tailWrites, changes);
    return appended.readModelCurrent ? null : appended.checkpoint;
  }

  /** The latest of some positions (as checkpoints), `null` when none. */
  latest(positions: (string | null)[]): AllCheckpoint | null {
    let best: AllCheckpoint | null = null;
    for (const value of positions) {
      if (value === null) continue;
      const cp = { value };
      if (best === null || !this.eventStore.isAtOrAfter(best, cp)) best = cp;
    }
    return best;
  }
}

function loadTail(events: StoredEvent[] | undefined): LoadedTail {
  let state: TailState | null = null;
  for (const e of events ?? []) state = evolve(state, toTailEvent(e));
  const last = events && events.length > 0 ? events[events.length - 1] : undefined;
  return { state, version: last?.version ?? 0, position: last?.position ?? null };
}
