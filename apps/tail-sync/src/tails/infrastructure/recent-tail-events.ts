import type { AllCheckpoint, EventStore, ReadAllResult, StoredEvent } from '@tailsync/event-store';
import { TAIL_STREAM_PREFIX } from '../domain/stream-ids';

/** `readAll` options for the tail streams only. */
export const TAIL_STREAMS = { streamPrefixes: [TAIL_STREAM_PREFIX] };
const noop = () => undefined;

/**
 * Reads the tail events after a checkpoint (`readAll` filtered to `tail-` streams), remembering
 * the newest ones, so that the projection and the relay of one process read each event from the
 * store once: after every write both want the same new events, and the second gets them from
 * memory instead of a second query and a second parse of every row.
 *
 * It keeps one run: every tail event after `start` up to `end`, exactly as `readAll` returned them,
 * at most `maxEvents`. `end` is the checkpoint the store returned, which may lie past the newest
 * tail event (EventStoreDB scans other streams' events and says how far): reads are answered with
 * it, and the store is read on from it, so an idle poll never scans those events again. A
 * `readAll` result is final (the adapters never return an event while an older one may still
 * appear), so the run is a true copy of that stretch of the log. A read starting inside the run is
 * served from it, and the store is read only for what lies beyond it, by one query at a time
 * however many callers want it. A read starting elsewhere (a copy far behind, a rebuild) goes to
 * the store and starts a new run.
 */
export class RecentTailEvents {
  /** The run covers (start, end]; `start` is `undefined` before the first read. */
  private start: AllCheckpoint | null | undefined = undefined;
  private end: AllCheckpoint | null = null;
  private events: StoredEvent[] = [];
  private reading: Promise<void> | null = null;
  /** Store reads started, and the number of the latest one that succeeded (one runs at a time). */
  private started = 0;
  private freshest = 0;

  constructor(
    private readonly store: Pick<EventStore, 'readAll' | 'isAtOrAfter'>,
    private readonly maxEvents = 10_000,
  ) {}

  /** What `store.readAll(after, limit, { streamPrefixes: ['tail-'] })` returns, read once per process. */
  async readAfter(after: AllCheckpoint | null, limit: number): Promise<ReadAllResult> {
    if (!Number.isInteger(limit) || limit <= 0) return { events: [], checkpoint: after };
    const startedBefore = this.started;
    for (;;) {
      const cached = this.cachedAfter(after, limit);
      // Short of `limit`, memory answers only after a store read that began after this call did:
      // that read saw at least everything this call's own read would have seen.
      if (cached && (cached.events.length === limit || this.freshest > startedBefore)) return cached;
      if (this.reading) {
        await this.reading;
        continue;
      }
      // Only what lies beyond the run (all of it when `after` is outside the run).
      const read = this.readStore(cached ? this.end : after, limit - (cached?.events.length ?? 0), cached !== null);
      this.reading = read.then(noop, noop).finally(() => {
        this.reading = null;
      });
      const { events, checkpoint } = await read;
      return cached ? { events: [...cached.events, ...events], checkpoint } : { events, checkpoint };
    }
  }

  private async readStore(from: AllCheckpoint | null, limit: number, extendsRun: boolean): Promise<ReadAllResult> {
    const n = ++this.started;
    const result = await this.store.readAll(from, limit, TAIL_STREAMS);
    this.keep(from, result, extendsRun);
    this.freshest = n;
    return result;
  }

  /**
   * The run's events after `after` (at most `limit`), with the checkpoint after them (the run's end
   * when they reach it), or `null` when `after` is not inside the run.
   */
  private cachedAfter(after: AllCheckpoint | null, limit: number): ReadAllResult | null {
    if (this.start === undefined) return null;
    if (after === null ? this.start !== null : !this.atOrAfter(after, this.start) || !this.atOrAfter(this.end, after)) return null;
    // First event after `after` (positions ascend).
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (after !== null && this.atOrAfter(after, { value: this.events[mid].position })) lo = mid + 1;
      else hi = mid;
    }
    const events = this.events.slice(lo, lo + limit);
    const toTheEnd = lo + events.length === this.events.length;
    return { events, checkpoint: toTheEnd ? (this.end ?? after) : { value: events[events.length - 1].position } };
  }

  /** Adds a store read to the run (`extends`: it read on from the run's end), or starts a new run. */
  private keep(from: AllCheckpoint | null, { events, checkpoint }: ReadAllResult, extendsRun: boolean): void {
    for (let i = 1; i < events.length; i++) {
      if (this.atOrAfter({ value: events[i - 1].position }, { value: events[i].position })) {
        this.start = undefined; // not in global order: not a run; nothing is served from memory
        this.events = [];
        return;
      }
    }
    if (extendsRun && this.start !== undefined) this.events.push(...events);
    else {
      this.start = from;
      this.events = [...events];
    }
    this.end = checkpoint;
    const excess = this.events.length - this.maxEvents;
    if (excess > 0) {
      this.start = { value: this.events[excess - 1].position };
      this.events = this.events.slice(excess);
    }
  }

  private atOrAfter(a: AllCheckpoint | null, b: AllCheckpoint | null): boolean {
    if (b === null) return true;
    return this.store.isAtOrAfter(a, b);
  }
}
