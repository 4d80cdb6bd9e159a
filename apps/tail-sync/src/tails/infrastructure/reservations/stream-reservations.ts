import {
  newEventId,
  WrongExpectedVersionError,
  type AppendResult,
  type EventStore,
  type StreamWrite,
} from '@tailsync/event-store';
import { claimWithdrawn, foldReservation, freeReservation, type Reservation } from '../../domain/reservation.events';
import { CLAIM_LEASE_MS, claimMayBeInFlight } from './claim-lease';
import { MAX_CLOCK_SKEW_MS, measureStoreClock, StoreClockSkewed } from './store-clock';
import type { ReservationChange, ReservationStore, TailAppend } from '../../application/reservation-store';

/**
 * The claims of a write were stored so slowly that other writers may already take them for
 * claims a stopped writer left behind: the tail events are not written, and the command is
 * decided again (its own claims then count as free).
 */
class ClaimsOutlivedTheirLease extends WrongExpectedVersionError {
  constructor(key: string, expectedVersion: number, elapsedMs: number) {
    super(key, expectedVersion, -1);
    this.name = 'ClaimsOutlivedTheirLease';
    this.message = `claims (first '${key}') took ${elapsedMs} ms to store; the tail events were not written`;
  }
}

/**
 * Reservations as event streams (`tailnumber-…`, `mappedid-…`) appended with the tail streams.
 * Works with any event store, including one that is not atomic across streams (EventStoreDB).
 * There, claims are appended first, then the tail events, then releases, each group once the one
 * before it is stored (the store writes the streams of one call concurrently): an interrupted write
 * leaves at worst a claim its tail does not hold, never a number released while its tail still
 * holds it. Such a claim is taken as still being written for `CLAIM_LEASE_MS` after it was
 * recorded (other writers wait and decide again), then as left behind (free); so the tail events
 * are written only while less than half of that has passed since the claims were sent. A claim's
 * time is the store's clock: it is judged on that clock too, as measured at start ({@link alignClock}).
 */
export class StreamReservations implements ReservationStore {
  /** The store's clock minus this process's, as measured at start. */
  private clockOffsetMs = 0;

  constructor(
    private readonly eventStore: EventStore,
    private readonly now: () => number = Date.now,
    private readonly leaseMs = CLAIM_LEASE_MS,
  ) {}

  async read(keys: string[]): Promise<Map<string, Reservation>> {
    const streams = await this.eventStore.readStreams(keys);
    const out = new Map<string, Reservation>();
    for (const key of keys) {
      const events = streams.get(key) ?? [];
      const version = events.length > 0 ? events[events.length - 1].version : 0;
      if (version === 0) {
        out.set(key, freeReservation);
        continue;
      }
      // Stored events carry when they were recorded, so a claim's time comes with it; a store that
      // appends claims with their tail's events has no claim in flight to tell apart.
      const { holder, claimedAt } = foldReservation(events);
      out.set(key, this.eventStore.atomicMultiStream || !claimedAt ? { holder, version } : { holder, version, claimedAt });
    }
    return out;
  }

  /**
   * Measures the store's clock against this process's, so that claims (timed by the store) are
   * judged on the store's clock; refuses to go on when they differ by more than {@link MAX_CLOCK_SKEW_MS}.
   */
  async alignClock(): Promise<void> {
    const { offsetMs, uncertaintyMs } = await measureStoreClock(this.eventStore, this.now);
    if (Math.abs(offsetMs) - uncertaintyMs > MAX_CLOCK_SKEW_MS) {
      throw new StoreClockSkewed(`is ${(Math.abs(offsetMs) / 1000).toFixed(1)} s ${offsetMs < 0 ? 'behind' : 'ahead of'} this machine's`);
    }
    this.clockOffsetMs = offsetMs;
  }

  /** A claim its tail does not hold is taken as still being written until its lease runs out, on the store's clock. */
  mayBeInFlight(reservation: Reservation, now: Date): boolean {
    return claimMayBeInFlight(reservation, new Date(now.getTime() + this.clockOffsetMs), this.leaseMs);
  }

  /** The projection writes the read model from the events alone: a command waits for it. */
  async write(tailWrites: StreamWrite[], changes: ReservationChange[]): Promise<TailAppend> {
    return { ...(await this.append(tailWrites, changes)), readModelCurrent: false };
  }

  private async append(tailWrites: StreamWrite[], changes: ReservationChange[]): Promise<AppendResult> {
    const write = (c: ReservationChange): StreamWrite => ({
      streamId: c.key,
      expectedVersion: c.expectedVersion,
      events: c.events.map((e) => ({ eventId: newEventId(), type: e.type, data: { ...e.data }, metadata: c.metadata })),
    });
    const releases = (c: ReservationChange) => c.after.holder === null;
    const claimChanges = changes.filter((c) => !releases(c));
    const claims = claimChanges.map(write);
    const released = changes.filter(releases).map(write);
    if (this.eventStore.atomicMultiStream) return this.eventStore.append([...claims, ...tailWrites, ...released]);

    // Each group once the one before it is stored: the store writes the streams of one call
    // concurrently, and a release must never land before its tail's events.
    let result: AppendResult | null = null;
    if (claims.length > 0) {
      const sent = this.now();
      try {
        result = await this.eventStore.append(claims);
      } catch (e) {
        if (e instanceof WrongExpectedVersionError) await this.withdraw(claimChanges);
        throw e;
      }
      const elapsedMs = this.now() - sent;
      if (elapsedMs >= this.leaseMs / 2) throw new ClaimsOutlivedTheirLease(claims[0].streamId, Number(claims[0].expectedVersion), elapsedMs);
    }
    for (const group of [tailWrites, released]) {
      if (group.length === 0) continue;
      const written = await this.eventStore.append(group);
      result = result === null ? written : this.merged(result, written);
    }
    return result ?? this.eventStore.append([]);
  }

  /**
   * Takes back the claims of a group that lost one of them to a concurrent writer: the others,
   * written beside it, may be stored, and two writers each holding part of the other's keys would
   * wait on each other for a lease. Each withdrawal expects the version right after its claim, so
   * it lands only where that claim is the newest event; it is best effort (a claim left is one a
   * stopped writer could leave too).
   */
  private async withdraw(claims: ReservationChange[]): Promise<void> {
    await Promise.all(
      claims.map(({ key, expectedVersion, events, after, metadata }) => {
        const withdrawal = claimWithdrawn(after.holder!);
        const event = { eventId: newEventId(), type: withdrawal.type, data: { ...withdrawal.data }, metadata };
        return this.eventStore.append([{ streamId: key, expectedVersion: expectedVersion + events.length, events: [event] }]).catch(() => undefined);
      }),
    );
  }

  private merged(a: AppendResult, b: AppendResult): AppendResult {
    return {
      streams: { ...a.streams, ...b.streams },
      checkpoint: this.eventStore.isAtOrAfter(b.checkpoint, a.checkpoint) ? b.checkpoint : a.checkpoint,
    };
  }
}
