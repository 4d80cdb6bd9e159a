/**
 * Behaviour every EventStore adapter must have. Used by the adapters' spec files (Jest globals).
 * Every test uses its own random stream ids, so the suite can share one database with others.
 */
import { randomUUID } from 'node:crypto';
import {
  AllCheckpoint,
  EventStore,
  NewEvent,
  StoredEvent,
  WrongExpectedVersionError,
} from './event-store.port';

export interface EventStoreFixture {
  store: EventStore;
  cleanup(): Promise<void>;
}

export function newEvent(type = 'Something', data: Record<string, unknown> = {}, metadata?: Record<string, unknown>): NewEvent {
  return { eventId: randomUUID(), type, data, ...(metadata ? { metadata } : {}) };
}

export function uniqueId(prefix: string): string {
  return `${prefix}-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/**
 * Reads `$all` pages after `after` until `done(events)` holds or the timeout elapses. Visibility may
 * lag commits (PostgreSQL: an event becomes readable once every older transaction in the cluster has
 * finished, which on a loaded machine can take a moment), so tests poll instead of reading once.
 */
export async function readAllUntil(
  store: EventStore,
  after: AllCheckpoint | null,
  opts: { prefixes?: string[]; pageSize?: number; done: (events: StoredEvent[]) => boolean; timeoutMs?: number },
): Promise<{ events: StoredEvent[]; checkpoints: (AllCheckpoint | null)[]; pageSizes: number[] }> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  const events: StoredEvent[] = [];
  const checkpoints: (AllCheckpoint | null)[] = [];
  const pageSizes: number[] = [];
  let checkpoint = after;
  for (;;) {
    const page = await store.readAll(checkpoint, opts.pageSize ?? 100, { streamPrefixes: opts.prefixes });
    if (page.events.length > 0) {
      events.push(...page.events);
      pageSizes.push(page.events.length);
      checkpoints.push(page.checkpoint);
    }
    checkpoint = page.checkpoint;
    if (opts.done(events)) return { events, checkpoints, pageSizes };
    if (Date.now() > deadline) {
      throw new Error(
        `readAll did not reach the expected events in time (after ${JSON.stringify(after)}, prefixes ${JSON.stringify(opts.prefixes)}): ` +
          `got ${events.length}: ${events.map((e) => `${e.streamId}@${e.version}:${e.type}@${e.position}`).join(', ')}`,
      );
    }
    if (page.events.length === 0) await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * `actual` lists, in log order, events written by consecutive calls (`calls`, each in its order).
 * An atomic store logs a call's events in its order; one that writes a call's streams concurrently
 * may interleave the streams of one call, but never events of different calls.
 */
function expectCallsInLogOrder(store: EventStore, actual: string[], calls: string[][]): void {
  if (store.atomicMultiStream) {
    expect(actual).toEqual(calls.flat());
    return;
  }
  let at = 0;
  const segments = calls.map((call) => actual.slice(at, (at += call.length)));
  expect(segments.map((s) => [...s].sort())).toEqual(calls.map((c) => [...c].sort()));
  expect(actual).toHaveLength(at);
}

async function expectWrongVersion(p: Promise<unknown>, streamId: string, expected: number | 'any', actual?: number): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WrongExpectedVersionError);
  const wev = err as WrongExpectedVersionError;
  expect(wev.streamId).toBe(streamId);
  expect(wev.expected).toBe(expected);
  if (actual !== undefined) expect(wev.actual).toBe(actual);
}

/** Builds the fixture before the enclosing block's tests and cleans it up after them. */
function useFixture(factory: () => Promise<EventStoreFixture>, ready: (store: EventStore) => void): void {
  let fixture: EventStoreFixture | undefined;
  beforeAll(async () => {
    fixture = await factory();
    ready(fixture.store);
  });
  afterAll(async () => {
    await fixture?.cleanup();
  });
}

export function describeEventStoreContract(name: string, factory: () => Promise<EventStoreFixture>): void {
  describe(`EventStore contract: ${name}`, () => {
    let store!: EventStore;
    useFixture(factory, (built) => (store = built));

    it('pings', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('appends and reads a stream back with 1-based versions', async () => {
      const s = uniqueId('rt');
      const e1 = newEvent('TailCreated', { tail: 'N123', n: 1, nested: { ok: true, list: [1, 'two'] } }, { actor: 'svc-a' });
      const e2 = newEvent('MappingAdded', { mapping: 'x' });
      const r1 = await store.append([{ streamId: s, expectedVersion: 0, events: [e1, e2] }]);
      expect(r1.streams).toEqual({ [s]: 2 });
      expect(typeof r1.checkpoint.value).toBe('string');

      const e3 = newEvent('TailDeactivated', { reason: 'sold' });
      const r2 = await store.append([{ streamId: s, expectedVersion: 2, events: [e3] }]);
      expect(r2.streams).toEqual({ [s]: 3 });

      const events = await store.readStream(s);
      expect(events.map((e) => [e.version, e.eventId, e.type])).toEqual([
        [1, e1.eventId, 'TailCreated'],
        [2, e2.eventId, 'MappingAdded'],
        [3, e3.eventId, 'TailDeactivated'],
      ]);
      expect(events[0]).toMatchObject({ streamId: s, data: e1.data, metadata: { actor: 'svc-a' } });
      expect(events[1].metadata).toEqual({});
      for (const e of events) {
        expect(e.recordedAt).toBeInstanceOf(Date);
        expect(typeof e.position).toBe('string');
      }
      expect((await store.readStream(s, 2)).map((e) => e.version)).toEqual([3]);
      expect(await store.readStream(s, 3)).toEqual([]);
      expect(await store.readStream(uniqueId('missing'))).toEqual([]);
    });

    it('reads many streams at once, missing ones as []', async () => {
      const a = uniqueId('rs');
      const b = uniqueId('rs');
      const missing = uniqueId('rs');
      await store.append([
        { streamId: a, expectedVersion: 0, events: [newEvent('A1'), newEvent('A2')] },
        { streamId: b, expectedVersion: 0, events: [newEvent('B1')] },
      ]);
      const result = await store.readStreams([a, missing, b]);
      expect([...result.keys()].sort()).toEqual([a, b, missing].sort());
      expect(result.get(a)!.map((e) => [e.type, e.version])).toEqual([
        ['A1', 1],
        ['A2', 2],
      ]);
      expect(result.get(b)!.map((e) => e.type)).toEqual(['B1']);
      expect(result.get(missing)).toEqual([]);
      expect((await store.readStreams([])).size).toBe(0);
    });

    it('rejects expectedVersion 0 on an existing stream', async () => {
      const s = uniqueId('wev0');
      await store.append([{ streamId: s, expectedVersion: 0, events: [newEvent(), newEvent()] }]);
      await expectWrongVersion(store.append([{ streamId: s, expectedVersion: 0, events: [newEvent()] }]), s, 0, 2);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('rejects a stale or too-high expected version', async () => {
      const s = uniqueId('wevn');
      await store.append([{ streamId: s, expectedVersion: 0, events: [newEvent()] }]);
      await store.append([{ streamId: s, expectedVersion: 1, events: [newEvent()] }]);
      await expectWrongVersion(store.append([{ streamId: s, expectedVersion: 1, events: [newEvent()] }]), s, 1, 2);
      await expectWrongVersion(store.append([{ streamId: s, expectedVersion: 5, events: [newEvent()] }]), s, 5, 2);
      const fresh = uniqueId('wevn');
      await expectWrongVersion(store.append([{ streamId: fresh, expectedVersion: 3, events: [newEvent()] }]), fresh, 3, 0);
      expect(await store.readStream(s)).toHaveLength(2);
      expect(await store.readStream(fresh)).toEqual([]);
    });

    it("appends with 'any' whatever the version", async () => {
      const s = uniqueId('any');
      expect((await store.append([{ streamId: s, expectedVersion: 'any', events: [newEvent()] }])).streams[s]).toBe(1);
      expect((await store.append([{ streamId: s, expectedVersion: 'any', events: [newEvent(), newEvent()] }])).streams[s]).toBe(3);
      expect((await store.readStream(s)).map((e) => e.version)).toEqual([1, 2, 3]);
    });

    it('lets exactly one of concurrent appends at the same expected version win', async () => {
      const s = uniqueId('race');
      await store.append([{ streamId: s, expectedVersion: 0, events: [newEvent('Created')] }]);
      const attempts = Array.from({ length: 8 }, (_, i) =>
        store.append([{ streamId: s, expectedVersion: 1, events: [newEvent('Attempt', { i })] }]),
      );
      const settled = await Promise.allSettled(attempts);
      const won = settled.filter((r) => r.status === 'fulfilled');
      const lost = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(7);
      for (const l of lost) expect(l.reason).toBeInstanceOf(WrongExpectedVersionError);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('lets exactly one of concurrent creations of the same stream win', async () => {
      const s = uniqueId('race0');
      const settled = await Promise.allSettled(
        Array.from({ length: 6 }, () => store.append([{ streamId: s, expectedVersion: 0, events: [newEvent()] }])),
      );
      expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream(s)).toHaveLength(1);
    });

    it("serialises concurrent 'any' appends without losing or duplicating versions", async () => {
      const s = uniqueId('anyrace');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.append([{ streamId: s, expectedVersion: 'any', events: [newEvent('E', { i })] }])),
      );
      expect(results.map((r) => r.streams[s]).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect((await store.readStream(s)).map((e) => e.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('appends to several streams in one call', async () => {
      const a = uniqueId('multi');
      const b = uniqueId('multi');
      const c = uniqueId('multi');
      await store.append([{ streamId: b, expectedVersion: 0, events: [newEvent()] }]);
      const r = await store.append([
        { streamId: a, expectedVersion: 0, events: [newEvent(), newEvent()] },
        { streamId: b, expectedVersion: 1, events: [newEvent()] },
        { streamId: c, expectedVersion: 'any', events: [newEvent()] },
      ]);
      expect(r.streams).toEqual({ [a]: 2, [b]: 2, [c]: 1 });
      const all = await store.readStreams([a, b, c]);
      expect([all.get(a)!.length, all.get(b)!.length, all.get(c)!.length]).toEqual([2, 2, 1]);
    });

    it('stores nothing of a multi-stream call when one stream conflicts (if atomicMultiStream)', async () => {
      const fresh = uniqueId('aon');
      const existing = uniqueId('aon');
      const later = uniqueId('aon');
      await store.append([{ streamId: existing, expectedVersion: 0, events: [newEvent()] }]);
      const call = store.append([
        { streamId: fresh, expectedVersion: 0, events: [newEvent()] },
        { streamId: existing, expectedVersion: 0, events: [newEvent()] },
        { streamId: later, expectedVersion: 0, events: [newEvent()] },
      ]);
      await expectWrongVersion(call, existing, 0, 1);
      expect(await store.readStream(existing)).toHaveLength(1);
      if (store.atomicMultiStream) {
        expect(await store.readStream(fresh)).toEqual([]);
        expect(await store.readStream(later)).toEqual([]);
      } else {
        // Non-atomic adapters start the writes in the given order: those started before the failing
        // one stay stored (later ones, in flight beside it, may be stored too).
        expect(await store.readStream(fresh)).toHaveLength(1);
      }
    });

    it('stores one stream write of 2 MiB (past EventStoreDB\'s default append size) whole, in order', async () => {
      const streamId = uniqueId('big');
      const pad = 'x'.repeat(55_000);
      const events = Array.from({ length: 40 }, (_, i) => newEvent('Big', { i, pad }));
      const result = await store.append([{ streamId, expectedVersion: 0, events }]);
      expect(result.streams).toEqual({ [streamId]: 40 });
      const stored = await store.readStream(streamId);
      expect(stored.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
      expect(stored.map((e) => e.data.i)).toEqual(events.map((_, i) => i));
    });

    it('treats re-appending the same event ids at the same place as a no-op success', async () => {
      const a = uniqueId('idem');
      const b = uniqueId('idem');
      const call = [
        { streamId: a, expectedVersion: 0, events: [newEvent('A1'), newEvent('A2')] },
        { streamId: b, expectedVersion: 0, events: [newEvent('B1')] },
      ];
      const first = await store.append(call);
      expect(first.streams).toEqual({ [a]: 2, [b]: 1 });
      const retry = await store.append(call);
      expect(retry.streams).toEqual({ [a]: 2, [b]: 1 });
      expect(store.isAtOrAfter(retry.checkpoint, first.checkpoint)).toBe(true);

      // The streams moved on; a late retry of the original call still succeeds with the stored versions.
      await store.append([{ streamId: a, expectedVersion: 2, events: [newEvent('A3')] }]);
      const lateRetry = await store.append(call);
      expect(lateRetry.streams).toEqual({ [a]: 2, [b]: 1 });

      const reread = await store.readStreams([a, b]);
      expect(reread.get(a)!.map((e) => e.type)).toEqual(['A1', 'A2', 'A3']);
      expect(reread.get(b)!.map((e) => e.type)).toEqual(['B1']);
    });

    it("treats an immediate retry of an 'any' append as a no-op success", async () => {
      const s = uniqueId('idemany');
      const write = { streamId: s, expectedVersion: 'any' as const, events: [newEvent('X'), newEvent('Y')] };
      expect((await store.append([write])).streams[s]).toBe(2);
      expect((await store.append([write])).streams[s]).toBe(2);
      expect((await store.readStream(s)).map((e) => e.type)).toEqual(['X', 'Y']);
    });

  });
  describeReadAllContract(name, factory);
}

/**
 * The `readAll` part of the contract on its own, e.g. to run it again on an adapter configured to
 * read small pages, so that its own page loop is exercised.
 */
export function describeReadAllContract(name: string, factory: () => Promise<EventStoreFixture>): void {
  describe(`EventStore readAll contract: ${name}`, () => {
    let store!: EventStore;
    useFixture(factory, (built) => (store = built));

    it('reads the global log in order, page by page, filtered by stream prefix', async () => {
      const run = uniqueId('ra');
      const marker = await store.append([{ streamId: `${run}-marker`, expectedVersion: 0, events: [newEvent('Marker')] }]);
      const p = `${run}-tail-`;
      const q = `${run}-other-`;
      await store.append([{ streamId: `${p}1`, expectedVersion: 0, events: [newEvent('T1a'), newEvent('T1b')] }]);
      await store.append([{ streamId: `${q}1`, expectedVersion: 0, events: [newEvent('O1')] }]);
      await store.append([
        { streamId: `${p}2`, expectedVersion: 0, events: [newEvent('T2a')] },
        { streamId: `${q}2`, expectedVersion: 0, events: [newEvent('O2')] },
        { streamId: `${p}1`, expectedVersion: 2, events: [newEvent('T1c')] },
      ]);
      await store.append([{ streamId: `${p}3`, expectedVersion: 0, events: [newEvent('T3a')] }]);

      const filtered = await readAllUntil(store, marker.checkpoint, {
        prefixes: [p],
        pageSize: 2,
        done: (events) => events.length >= 5,
      });
      expectCallsInLogOrder(store, filtered.events.map((e) => e.type), [['T1a', 'T1b'], ['T2a', 'T1c'], ['T3a']]);
      expectCallsInLogOrder(store, filtered.events.map((e) => `${e.streamId.slice(p.length)}@${e.version}`), [['1@1', '1@2'], ['2@1', '1@3'], ['3@1']]);
      expect(filtered.pageSizes.every((n) => n <= 2)).toBe(true);
      expect(filtered.pageSizes.length).toBeGreaterThanOrEqual(3);
      // Checkpoints strictly increase, and each one is the position of the page's last event.
      for (let i = 1; i < filtered.checkpoints.length; i++) {
        expect(store.isAtOrAfter(filtered.checkpoints[i], filtered.checkpoints[i - 1]!)).toBe(true);
        expect(store.isAtOrAfter(filtered.checkpoints[i - 1], filtered.checkpoints[i]!)).toBe(false);
      }
      const end = filtered.checkpoints[filtered.checkpoints.length - 1]!;
      const after = await store.readAll(end, 10, { streamPrefixes: [p] });
      expect(after.events).toEqual([]);
      expect(after.checkpoint).not.toBeNull();
      expect(store.isAtOrAfter(after.checkpoint, end)).toBe(true);

      // Several prefixes, and no filter at all (other tests' events may interleave: check our subsequence).
      const two = await readAllUntil(store, marker.checkpoint, { prefixes: [p, q], done: (events) => events.length >= 7 });
      const calls = [['T1a', 'T1b'], ['O1'], ['T2a', 'O2', 'T1c'], ['T3a']];
      expectCallsInLogOrder(store, two.events.map((e) => e.type), calls);
      const unfiltered = await readAllUntil(store, marker.checkpoint, {
        pageSize: 3,
        done: (events) => events.filter((e) => e.streamId.startsWith(run)).length >= 7,
      });
      expectCallsInLogOrder(store, unfiltered.events.filter((e) => e.streamId.startsWith(run)).map((e) => e.type), calls);
      // From the very beginning, the marker comes first among this run's events.
      const fromStart = await readAllUntil(store, null, {
        prefixes: [run],
        pageSize: 50,
        done: (events) => events.length >= 8,
      });
      expectCallsInLogOrder(store, fromStart.events.map((e) => e.type), [['Marker'], ...calls]);
    });

    it("returns an empty page with the input checkpoint's position when nothing is new", async () => {
      const s = uniqueId('empty');
      const r = await store.append([{ streamId: s, expectedVersion: 0, events: [newEvent()] }]);
      const got = await readAllUntil(store, null, { prefixes: [s], done: (events) => events.length >= 1 });
      const cp = got.checkpoints[got.checkpoints.length - 1]!;
      const page = await store.readAll(cp, 10, { streamPrefixes: [s] });
      expect(page.events).toEqual([]);
      expect(store.isAtOrAfter(page.checkpoint, cp)).toBe(true);
      expect(store.isAtOrAfter(page.checkpoint, r.checkpoint)).toBe(true);
      expect((await store.readAll(cp, 0)).events).toEqual([]);
    });

    it("compares checkpoints: a projection has applied an append once it is at or after append's checkpoint", async () => {
      const run = uniqueId('cp');
      const r1 = await store.append([{ streamId: `${run}-a`, expectedVersion: 0, events: [newEvent('A')] }]);
      const r2 = await store.append([
        { streamId: `${run}-b`, expectedVersion: 0, events: [newEvent('B1'), newEvent('B2')] },
        { streamId: `${run}-c`, expectedVersion: 0, events: [newEvent('C1')] },
      ]);
      expect(store.isAtOrAfter(r2.checkpoint, r1.checkpoint)).toBe(true);
      expect(store.isAtOrAfter(r1.checkpoint, r2.checkpoint)).toBe(false);
      expect(store.isAtOrAfter(r1.checkpoint, r1.checkpoint)).toBe(true);
      expect(store.isAtOrAfter(null, r1.checkpoint)).toBe(false);

      // A projection reading one event at a time reaches r1 after A and r2 only after the call's last event.
      const seen: { type: string; checkpoint: AllCheckpoint }[] = [];
      let cp: AllCheckpoint | null = null;
      const deadline = Date.now() + 30_000;
      while (seen.length < 4 && Date.now() < deadline) {
        const page = await store.readAll(cp, 1, { streamPrefixes: [run] });
        if (page.events.length === 0) {
          await new Promise((r) => setTimeout(r, 25));
          continue;
        }
        cp = page.checkpoint;
        seen.push({ type: page.events[0].type, checkpoint: page.checkpoint! });
        expect(page.checkpoint!.value).toBe(page.events[0].position);
      }
      expectCallsInLogOrder(store, seen.map((s) => s.type), [['A'], ['B1', 'B2', 'C1']]);
      expect(seen.map((s) => s.type).filter((t) => t.startsWith('B'))).toEqual(['B1', 'B2']);
      expect(seen.map((s) => store.isAtOrAfter(s.checkpoint, r1.checkpoint))).toEqual([true, true, true, true]);
      expect(seen.map((s) => store.isAtOrAfter(s.checkpoint, r2.checkpoint))).toEqual([false, false, false, true]);
      expect(store.isAtOrAfter(seen[3].checkpoint, r2.checkpoint)).toBe(true);
    });
  });
}
