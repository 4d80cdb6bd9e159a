import type { EventDoor } from './event-door';
import { DoorError } from './event-door';
import type { PolledEventView } from '@tailsync/contracts';

/** What the local receiver made of one forwarded event. */
export interface Forwarded {
  event: PolledEventView;
  /** Its HTTP status; absent when it did not answer. */
  status?: number;
  error?: string;
  /** `retry`: sent again after a pause, as the dispatcher retries a callback; `refused`: a 4xx it would not retry, left behind. */
  outcome: 'delivered' | 'retry' | 'refused';
}

export interface FollowOptions {
  door: Pick<EventDoor, 'page'>;
  /** The local receiver's URL: each event is POSTed there with its callback headers. */
  forwardTo: string;
  /** Where to start (an iterator the door handed out); absent: from the oldest event kept. */
  after?: string;
  /** Stop once the door has nothing more (else wait `intervalMs` and ask again, until `signal`). */
  once?: boolean;
  intervalMs?: number;
  limit?: number;
  /** The longest a receiver may take to answer (the dispatcher's attempt time-out). */
  timeoutMs?: number;
  signal?: AbortSignal;
  onForwarded?: (forwarded: Forwarded) => void;
  /** A pause before asking the door, or the receiver, again. */
  onPause?: (reason: string, ms: number) => void;
}

const MAX_PAUSE_MS = 30_000;

/**
 * Follows the polling door and forwards each event, in order, to a local receiver exactly as its
 * callback arrives: the exact body, the door's signature headers. A receiver that is down or answers
 * 5xx, 408 or 429 gets the event again after a growing pause (the door read again from the same
 * iterator, so the headers are fresh, without the events of that page it already took); any other
 * 4xx is reported and passed, as the dispatcher does not retry it. Resolves with the last iterator.
 */
export async function followDoor(options: FollowOptions): Promise<string | undefined> {
  const { door, signal } = options;
  const intervalMs = options.intervalMs ?? 1000;
  let after = options.after;
  // Events of the page after `after` the receiver already took (a page read again skips them).
  const taken = new Set<string>();
  let failures = 0;
  const pause = async (reason: string) => {
    const ms = Math.min(MAX_PAUSE_MS, 1000 * 2 ** Math.min(failures++, 5));
    options.onPause?.(reason, ms);
    await sleep(ms, signal);
  };

  while (!signal?.aborted) {
    let page;
    try {
      page = await door.page(after, options.limit ?? 100);
    } catch (error) {
      if (!(error instanceof DoorError) || !error.passing) throw error;
      await pause(error.message);
      continue;
    }
    let held = false;
    for (const event of page.items) {
      if (taken.has(event.eventId)) continue;
      const forwarded = await forward(event, options.forwardTo, options.timeoutMs ?? 10_000);
      options.onForwarded?.(forwarded);
      if (forwarded.outcome === 'retry') {
        held = true;
        break;
      }
      taken.add(event.eventId);
      failures = 0;
      if (signal?.aborted) return after;
    }
    if (held) {
      await pause('the receiver did not take an event');
      continue;
    }
    after = page.iterator;
    taken.clear();
    if (page.done) {
      if (options.once) return after;
      await sleep(intervalMs, signal);
    }
  }
  return after;
}

async function forward(event: PolledEventView, url: string, timeoutMs: number): Promise<Forwarded> {
  try {
    const res = await fetch(url, { method: 'POST', headers: event.headers, body: event.payload, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    const status = res.status;
    const outcome = status >= 200 && status <= 299 ? 'delivered' : status === 408 || status === 429 || status >= 500 ? 'retry' : 'refused';
    return { event, status, outcome };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { event, error: `no answer (${cause})`, outcome: 'retry' };
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
