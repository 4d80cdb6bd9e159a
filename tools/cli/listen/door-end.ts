import { EVENT_FEED_MAX_LIMIT } from '@tailsync/contracts';
import type { EventDoor } from './event-door';

/** Where the door ends now and how many events lie before that point. */
export interface DoorEnd {
  iterator: string | undefined;
  passed: number;
}

/**
 * The iterator past every event the door shows now, where `listen --from-now` starts: the door
 * starts only from the oldest event or from an iterator, so the kept events are read through in
 * the largest pages, never forwarded.
 */
export async function doorEnd(door: Pick<EventDoor, 'page'>): Promise<DoorEnd> {
  let iterator: string | undefined;
  let passed = 0;
  for (;;) {
    const page = await door.page(iterator, EVENT_FEED_MAX_LIMIT);
    iterator = page.iterator;
    passed += page.items.length;
    if (page.done) return { iterator, passed };
  }
}
