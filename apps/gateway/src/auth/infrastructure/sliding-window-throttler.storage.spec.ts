import { SlidingWindowThrottlerStorage } from './sliding-window-throttler.storage';

const MINUTE = 60_000;

describe('SlidingWindowThrottlerStorage', () => {
  let now: number;
  let storage: SlidingWindowThrottlerStorage;
  const hit = (key = 'sa:a', limit = 5) => storage.increment(key, MINUTE, limit, MINUTE, 'default');

  beforeEach(() => {
    now = 10 * MINUTE; // the start of a window
    storage = new SlidingWindowThrottlerStorage(() => now);
  });

  it('counts hits per key and blocks the hit that goes over the limit, for the block duration', async () => {
    for (let i = 1; i <= 5; i++) expect(await hit()).toMatchObject({ totalHits: i, isBlocked: false });
    expect(await hit('sa:other')).toMatchObject({ totalHits: 1, isBlocked: false });
    now += 1_000;
    const over = await hit();
    expect(over).toMatchObject({ totalHits: 6, isBlocked: true, timeToBlockExpire: 60 });
    now += 30_000;
    expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
    now += 30_000; // the block is over: counting starts afresh
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false, timeToBlockExpire: 0 });
  });

  it("weights the previous window's hits by how much of it the sliding minute still covers", async () => {
    for (let i = 0; i < 4; i++) await hit('sa:a', 100);
    now += MINUTE + MINUTE / 4; // a quarter into the next window: 3/4 of the previous one still counts
    expect(await hit('sa:a', 100)).toMatchObject({ totalHits: Math.ceil(4 * 0.75 + 1), timeToExpire: 45 });
    now += MINUTE; // two windows later the old hits no longer count
    expect(await hit('sa:a', 100)).toMatchObject({ totalHits: Math.ceil(1 * 0.75 + 1) });
    now += 2 * MINUTE;
    expect(await hit('sa:a', 100)).toMatchObject({ totalHits: 1 });
  });

  it('never lets a caller pass twice the limit across a window boundary', async () => {
    now += MINUTE - 1_000; // the last second of a window
    let allowed = 0;
    for (let i = 0; i < 5; i++) if (!(await hit()).isBlocked) allowed++;
    now += 2_000; // the first second of the next
    for (let i = 0; i < 5; i++) if (!(await hit()).isBlocked) allowed++;
    expect(allowed).toBe(5);
  });

  it('forgets idle callers but keeps blocked ones until their block ends', async () => {
    for (let i = 0; i < 6; i++) await storage.increment('sa:blocked', MINUTE, 5, 5 * MINUTE, 'default');
    await hit('sa:idle');
    expect(storage.size).toBe(2);
    now += 2 * MINUTE - 1;
    storage.sweep();
    expect(storage.size).toBe(2);
    now += 1;
    storage.sweep();
    expect(storage.size).toBe(1);
    now += 3 * MINUTE;
    storage.sweep();
    expect(storage.size).toBe(0);
  });
});
