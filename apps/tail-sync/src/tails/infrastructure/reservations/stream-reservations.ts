import { newEventId, type AppendResult, type EventStore, type StreamWrite } from '@tailsync/event-store';
import { foldReservation, freeReservation, type Reservation } from '../../domain/reservation.events';
import type { ReservationChange, ReservationStore } from '../../application/reservation-store';

/**
 * Reservations as event streams (`tailnumber-…`, `mappedid-…`) appended in the same call as the
 * tail streams. Works with any event store, including one that is not atomic across streams
 * (EventStoreDB): claims are written first and releases last, so an interrupted append leaves at
 * worst a stale claim (the writer checks that the named tail really holds it), never a number
 * released while its tail still holds it.
 */
export class StreamReservations implements ReservationStore {
  constructor(private readonly eventStore: EventStore) {}

  async read(keys: string[]): Promise<Map<string, Reservation>> {
    const streams = await this.eventStore.readStreams(keys);
    const out = new Map<string, Reservation>();
    for (const key of keys) {
      const events = streams.get(key) ?? [];
      const version = events.length > 0 ? events[events.length - 1].version : 0;
      out.set(key, version === 0 ? freeReservation : { holder: foldReservation(events).holder, version });
    }
    return out;
  }

  write(tailWrites: StreamWrite[], changes: ReservationChange[]): Promise<AppendResult> {
    const write = (c: ReservationChange): StreamWrite => ({
      streamId: c.key,
      expectedVersion: c.expectedVersion,
      events: c.events.map((e) => ({ eventId: newEventId(), type: e.type, data: { ...e.data }, metadata: c.metadata })),
    });
    const releases = (c: ReservationChange) => c.after.holder === null;
    return this.eventStore.append([
      ...changes.filter((c) => !releases(c)).map(write),
      ...tailWrites,
      ...changes.filter(releases).map(write),
    ]);
  }
}
