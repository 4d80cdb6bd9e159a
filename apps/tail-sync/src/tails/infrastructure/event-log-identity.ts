import { newEventId, WrongExpectedVersionError, type EventStore } from '@tailsync/event-store';

/** The stream whose first event names the log: written once, by the first tail-sync to start on it. */
export const EVENT_LOG_IDENTITY_STREAM = 'eventlog-identity';

/**
 * An id of the store's log, the same for as long as its events are kept: the id of the first event
 * of {@link EVENT_LOG_IDENTITY_STREAM}, written if there is none. A wiped or other store has
 * another (or none yet, and gets a new one), so a checkpoint can be tied to the log it came from.
 */
export async function eventLogIdentity(store: Pick<EventStore, 'readStream' | 'append'>): Promise<string> {
  for (;;) {
    const [first] = await store.readStream(EVENT_LOG_IDENTITY_STREAM);
    if (first) return first.eventId.toLowerCase();
    try {
      await store.append([{ streamId: EVENT_LOG_IDENTITY_STREAM, expectedVersion: 0, events: [{ eventId: newEventId(), type: 'EventLogNamed', data: {} }] }]);
    } catch (e) {
      // Another process named it first: read its name.
      if (!(e instanceof WrongExpectedVersionError)) throw e;
    }
  }
}
