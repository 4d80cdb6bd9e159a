import { PollingLoop, type TurnOutcome } from './polling-loop';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A loop whose turns answer from a script (the last answer repeats) and are counted. */
function scripted(outcomes: (TurnOutcome | Error)[], options: { idleMs?: number; errorBackoffMs?: number } = {}) {
  const errors: unknown[] = [];
  let turns = 0;
  const loop = new PollingLoop(
    async () => {
      const outcome = outcomes[Math.min(turns++, outcomes.length - 1)];
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    { idleMs: options.idleMs ?? 10_000, errorBackoffMs: options.errorBackoffMs ?? 10_000, onError: (e) => errors.push(e) },
  );
  return { loop, errors, turns: () => turns };
}

/** A caught-up loop (long pauses) whose turn number `held` waits until `release()`. */
function holding(held: number) {
  let release: () => void = () => undefined;
  let turns = 0;
  const loop = new PollingLoop(
    async () => {
      if (++turns === held) await new Promise<void>((r) => (release = r));
      return 'caught-up';
    },
    { idleMs: 10_000, errorBackoffMs: 10_000, onError: () => undefined },
  );
  return { loop, release: () => release(), turns: () => turns };
}

describe('PollingLoop', () => {
  it('runs a turn at once, then pauses once caught up', async () => {
    const s = scripted(['caught-up']);
    s.loop.start();
    s.loop.start(); // idempotent
    await sleep(20);
    expect(s.turns()).toBe(1);
    await s.loop.stop();
  });

  it('turns again at once while there is more, and keeps pausing after each caught-up turn', async () => {
    const s = scripted(['more', 'more', 'caught-up'], { idleMs: 15 });
    s.loop.start();
    await sleep(5);
    expect(s.turns()).toBe(3);
    await sleep(40);
    expect(s.turns()).toBeGreaterThanOrEqual(4);
    await s.loop.stop();
  });

  it('a wake ends the pause; one that came during a caught-up turn skips it', async () => {
    const h = holding(1);
    h.loop.start();
    h.loop.wake(); // during the first turn
    h.release();
    await sleep(5);
    expect(h.turns()).toBe(2);
    h.loop.wake(); // during the pause
    await sleep(5);
    expect(h.turns()).toBe(3);
    await h.loop.stop();
  });

  it('a pause of the turn\'s own is not skipped by a wake that came during the turn', async () => {
    let turns = 0;
    const loop = new PollingLoop(
      async () => {
        turns++;
        loop.wake();
        return { pauseMs: 10_000 };
      },
      { idleMs: 1, errorBackoffMs: 1, onError: () => undefined },
    );
    loop.start();
    await sleep(20);
    expect(turns).toBe(1);
    await loop.stop();
  });

  it('reports a failed turn and goes on after the back-off', async () => {
    const failure = new Error('down');
    const s = scripted([failure, 'caught-up'], { errorBackoffMs: 10 });
    s.loop.start();
    await sleep(5);
    expect(s.errors).toEqual([failure]);
    expect(s.turns()).toBe(1);
    await sleep(30);
    expect(s.turns()).toBe(2);
    await s.loop.stop();
  });

  it('stop cuts the pause short, waits for the turn in flight, and the loop can start again', async () => {
    const h = holding(2);
    h.loop.start();
    await sleep(5);
    const started = Date.now();
    await h.loop.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(h.loop.isRunning).toBe(false);

    h.loop.start();
    await sleep(5);
    let stopped = false;
    const stopping = h.loop.stop().then(() => (stopped = true));
    await sleep(5);
    expect(stopped).toBe(false); // the second turn is still in flight
    h.release();
    await stopping;
    expect(h.turns()).toBe(2);
  });
});
