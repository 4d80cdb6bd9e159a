import { EventStoreUnavailableError, newEventId, type EventStore } from '@tailsync/event-store';

/**
 * The most the store's clock may differ from tail-sync's at start. Claims are timed by the store
 * (`recordedAt`) and judged against the lease on its clock, as measured at start; and client 6.2.1
 * sends an append's deadline as a time of day, so a server clock ahead by the call time-out (5 s)
 * times out every write.
 */
export const MAX_CLOCK_SKEW_MS = 2_000;

/** The stream a probe event is appended to at start, to read the store's clock from its `recordedAt`. */
export const CLOCK_PROBE_STREAM = 'eventlog-clock-probe';

export class StoreClockSkewed extends Error {
  constructor(detail: string) {
    super(
      `The event store's clock ${detail}. tail-sync times claims on the store's clock and needs it within ` +
        `${MAX_CLOCK_SKEW_MS / 1000} s of its own: synchronise both machines' clocks (NTP), then start again.`,
    );
    this.name = 'StoreClockSkewed';
  }
}

/**
 * How far the store's clock is ahead of `now` (negative: behind), from a probe event's recorded
 * time, give or take half the round trip (`uncertaintyMs`).
 */
export async function measureStoreClock(
  store: Pick<EventStore, 'append' | 'readStream'>,
  now: () => number,
): Promise<{ offsetMs: number; uncertaintyMs: number }> {
  const before = now();
  let version: number;
  try {
    const written = await store.append([
      { streamId: CLOCK_PROBE_STREAM, expectedVersion: 'any', events: [{ eventId: newEventId(), type: 'ClockProbed', data: {} }] },
    ]);
    version = written.streams[CLOCK_PROBE_STREAM];
  } catch (e) {
    if (e instanceof EventStoreUnavailableError && /deadline-exceeded/.test(e.message)) {
      throw new StoreClockSkewed('may be ahead of this machine\'s by more than the call time-out: every append timed out at once');
    }
    throw e;
  }
  const after = now();
  const [probe] = await store.readStream(CLOCK_PROBE_STREAM, version - 1);
  return { offsetMs: probe.recordedAt.getTime() - (before + after) / 2, uncertaintyMs: (after - before) / 2 };
}
