import { newEventId, type NewEvent, type StreamWrite } from '@tailsync/event-store';
import { evolveReservation, freeReservation, type Reservation, type ReservationEvent } from '../../domain/reservation.events';
import { tailStreamId } from '../../domain/stream-ids';
import { evolve } from '../../domain/tail.decider';
import type { TailEvent } from '../../domain/tail.events';
import type { TailState } from '../../domain/tail.state';
import { ReservationInFlight, type ReservationChange } from '../../application/reservation-store';
import type { LoadedTail } from '../../application/tail-streams';

const DRAFT_EVENT_ID = '00000000-0000-0000-0000-000000000000';

/**
 * What a create-or-map batch has read and decided so far: the streams as read plus the in-memory
 * effect of the entries already decided, so a later entry sees an earlier one. This draft only
 * keeps that state (a decision made to count the tails a batch creates); {@link BatchDraftWithWrites}
 * also collects what to append.
 */
export class BatchDraft {
  private readonly tails = new Map<number, TailState | null>();
  private readonly reservations = new Map<string, Reservation>();

  constructor(
    protected readonly loadedTails: Map<number, LoadedTail>,
    protected readonly loadedReservations: Map<string, Reservation>,
    /** Whether a claim its tail does not hold may still be being written by another writer. */
    private readonly mayBeInFlight: (reservation: Reservation) => boolean,
  ) {}

  /** The id of the next event decided on this draft (a constant where nothing is written). */
  eventId(): string {
    return DRAFT_EVENT_ID;
  }

  tail(tailId: number): TailState | null {
    if (this.tails.has(tailId)) return this.tails.get(tailId) ?? null;
    return this.loadedTails.get(tailId)?.state ?? null;
  }

  reservation(streamId: string): Reservation {
    return this.reservations.get(streamId) ?? this.loadedReservations.get(streamId) ?? freeReservation;
  }

  /**
   * The tail a reservation names, if that tail really holds it. A claim its tail does not hold can
   * only come from a store that is not atomic across streams: left by a writer that stopped (the
   * key is free), or still being completed by another writer ({@link ReservationInFlight}).
   */
  holder(streamId: string, holds: (tail: TailState) => boolean): TailState | null {
    const reservation = this.reservation(streamId);
    if (reservation.holder === null) return null;
    const tail = this.tail(reservation.holder);
    if (tail && holds(tail)) return tail;
    if (this.mayBeInFlight(reservation)) throw new ReservationInFlight(streamId, reservation.version);
    return null;
  }

  applyTail(tailId: number, events: TailEvent[], _metadata: Record<string, unknown>): TailState | null {
    let state = this.tail(tailId);
    for (const e of events) state = evolve(state, e);
    this.tails.set(tailId, state);
    return state;
  }

  applyReservation(key: string, event: ReservationEvent, _metadata: Record<string, unknown>): Reservation {
    const after = evolveReservation(this.reservation(key), event);
    this.reservations.set(key, after);
    return after;
  }
}

/** A batch's draft that also collects the events to append, with the versions they were read at. */
export class BatchDraftWithWrites extends BatchDraft {
  private readonly pending = new Map<string, StreamWrite>();
  private readonly changes = new Map<string, ReservationChange>();

  override eventId(): string {
    return newEventId();
  }

  override applyTail(tailId: number, events: TailEvent[], metadata: Record<string, unknown>): TailState | null {
    const state = super.applyTail(tailId, events, metadata);
    if (events.length > 0) {
      const expected = this.loadedTails.get(tailId)?.version ?? 0;
      this.push(
        tailStreamId(tailId),
        expected,
        events.map((e) => ({ eventId: e.data.eventId, type: e.type, data: { ...e.data }, metadata })),
      );
    }
    return state;
  }

  override applyReservation(key: string, event: ReservationEvent, metadata: Record<string, unknown>): Reservation {
    const after = super.applyReservation(key, event, metadata);
    const change = this.changes.get(key);
    if (change) {
      change.events.push(event);
      change.after = after;
    } else {
      const expectedVersion = this.loadedReservations.get(key)?.version ?? 0;
      this.changes.set(key, { key, expectedVersion, events: [event], after, metadata });
    }
    return after;
  }

  /** Every touched tail stream once, with the version it was read at. */
  tailWrites(): StreamWrite[] {
    return [...this.pending.values()];
  }

  reservationChanges(): ReservationChange[] {
    return [...this.changes.values()];
  }

  private push(streamId: string, expectedVersion: number, events: NewEvent[]): void {
    const write = this.pending.get(streamId);
    if (write) {
      write.events.push(...events);
      return;
    }
    this.pending.set(streamId, { streamId, expectedVersion, events });
  }
}
