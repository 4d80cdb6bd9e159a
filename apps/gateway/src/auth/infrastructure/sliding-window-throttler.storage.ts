import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Counter {
  ttl: number;
  /** Start of the current window (ms since the epoch, a multiple of the ttl). */
  windowStart: number;
  current: number;
  previous: number;
  /** While `now` is before this, the caller is blocked (0 = not blocked). */
  blockedUntil: number;
}

/**
 * Rate-limit counts in O(1) per request: a sliding-window counter (the previous fixed window's
 * hits, weighted by how much of it still overlaps the sliding window, plus the current window's).
 *
 * Why not @nestjs/throttler's in-memory storage: it arms one timer per hit, and each timer on
 * firing filters an array of every pending timer, so a request costs O(requests in the last
 * minute) (docs/performance.md, "Performance choices").
 *
 * Per process, like the storage it replaces (several gateway copies each count their own hits).
 */
export class SlidingWindowThrottlerStorage implements ThrottlerStorage {
  private readonly counters = new Map<string, Counter>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly clock: () => number = Date.now,
    sweepIntervalMs = 60_000,
  ) {
    // unref'd: the sweep never keeps the process alive.
    this.sweeper = setInterval(() => this.sweep(), sweepIntervalMs);
    this.sweeper.unref();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const now = this.clock();
    const id = `${throttlerName}\u0000${key}`;
    const windowStart = now - (now % ttl);
    let c = this.counters.get(id);
    if (!c) {
      c = { ttl, windowStart, current: 0, previous: 0, blockedUntil: 0 };
      this.counters.set(id, c);
    } else if (c.windowStart !== windowStart) {
      // The window moved on: the old current becomes previous if it is the window just before.
      c.previous = c.windowStart === windowStart - ttl ? c.current : 0;
      c.current = 0;
      c.windowStart = windowStart;
    }

    if (c.blockedUntil !== 0 && now >= c.blockedUntil) {
      // The block is over: start counting afresh.
      c.blockedUntil = 0;
      c.current = 0;
      c.previous = 0;
    }
    if (c.blockedUntil === 0) c.current++;

    const overlap = 1 - (now - windowStart) / ttl;
    const totalHits = Math.ceil(c.previous * overlap + c.current);
    if (c.blockedUntil === 0 && totalHits > limit) c.blockedUntil = now + blockDuration;

    return {
      totalHits,
      timeToExpire: Math.ceil((windowStart + ttl - now) / 1000),
      isBlocked: c.blockedUntil !== 0,
      timeToBlockExpire: c.blockedUntil === 0 ? 0 : Math.ceil((c.blockedUntil - now) / 1000),
    };
  }

  /** Counters that no longer affect any decision (idle for two windows, not blocked). */
  sweep(): void {
    const now = this.clock();
    for (const [id, c] of this.counters) {
      if (c.blockedUntil > now) continue;
      if (now - c.windowStart >= 2 * c.ttl) this.counters.delete(id);
    }
  }

  get size(): number {
    return this.counters.size;
  }
}
