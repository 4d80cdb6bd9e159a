/**
 * RecentTailEvents against a real PostgreSQL event store (`DATABASE_URL`): what it returns must be
 * exactly what the store's own `readAll` returns, while the store is read once per event.
 */
import { randomUUID } from 'node:crypto';
import { EsdbEventStore, newEventId, type AllCheckpoint, type ReadAllResult } from '@tailsync/event-store';
import { InMemoryEsdbServer } from '@tailsync/event-store/testing';
import type { CallerContext } from '../application/caller-context';
import { createTestStores, type TestStores } from './read-model/read-model.test-support';
import { RecentTailEvents, TAIL_STREAMS } from './recent-tail-events';

const DATABASE_URL = process.env.DATABASE_URL;
const describeDb = DATABASE_URL ? describe : describe.skip;
if (!DATABASE_URL) console.warn('recent-tail-events.spec: DATABASE_URL not set; skipped');

describeDb('RecentTailEvents (PostgreSQL)', () => {
  let s: TestStores;
  /** Events each store read returned, in order. */
  let storeReads: number[];
  const ctx = (): CallerContext => ({ domain: s.unique('dom'), source: 'src' });

  /** The real store, counting what its reads return. */
  const countingStore = () => ({
    readAll: async (...args: Parameters<TestStores['store']['readAll']>): Promise<ReadAllResult> => {
      const result = await s.store.readAll(...args);
      storeReads.push(result.events.length);
      return result;
    },
    isAtOrAfter: (a: AllCheckpoint | null, b: AllCheckpoint) => s.store.isAtOrAfter(a, b),
  });

  const createTails = async (n: number) => {
    const c = ctx();
    await s.writer.createOrMapMany(
      c,
      Array.from({ length: n }, (_, i) => ({ mappedId: `m${i}`, tailNumber: `N${i}` })),
    );
  };
  const ids = (r: ReadAllResult) => r.events.map((e) => `${e.streamId}@${e.version}:${e.position}`);
  const direct = (after: AllCheckpoint | null, limit: number) => s.store.readAll(after, limit, TAIL_STREAMS);

  beforeAll(async () => {
    s = await createTestStores('rte', DATABASE_URL as string);
  });
  afterAll(async () => {
    await s?.cleanup();
  });
  beforeEach(() => {
    storeReads = [];
  });

  it('serves two readers asking at once with one store read', async () => {
    await createTails(5);
    const recent = new RecentTailEvents(countingStore());
    const [a, b] = await Promise.all([recent.readAfter(null, 100), recent.readAfter(null, 100)]);
    const expected = await direct(null, 100);
    expect(expected.events).toHaveLength(5);
    expect(ids(a)).toEqual(ids(expected));
    expect(ids(b)).toEqual(ids(expected));
    expect(b.checkpoint).toEqual(expected.checkpoint);
    // The events came from the store once (a reader that asked while the read was under way may check for newer ones).
    expect(storeReads.filter((n) => n > 0)).toEqual([5]);
  });

  it('reads the store only beyond what it holds, and sees events written since', async () => {
    const recent = new RecentTailEvents(countingStore());
    const first = await recent.readAfter(null, 100);
    await createTails(3);
    const again = await recent.readAfter(null, 100);
    expect(ids(again)).toEqual(ids(await direct(null, 100)));
    expect(again.events).toHaveLength(first.events.length + 3);
    // The second read fetched only the 3 new events.
    expect(storeReads).toEqual([first.events.length, 3]);
  });

  it('pages like the store from any checkpoint inside what it holds', async () => {
    const recent = new RecentTailEvents(countingStore());
    const all = await recent.readAfter(null, 1000);
    expect(all.events.length).toBeGreaterThanOrEqual(8);
    const mid: AllCheckpoint = { value: all.events[2].position };
    for (const [after, limit] of [
      [null, 3],
      [mid, 2],
      [mid, 1000],
      [all.checkpoint, 10],
    ] as [AllCheckpoint | null, number][]) {
      const got = await recent.readAfter(after, limit);
      const expected = await direct(after, limit);
      expect(ids(got)).toEqual(ids(expected));
      expect(got.checkpoint).toEqual(expected.checkpoint);
    }
  });

  it('reads the store for a checkpoint older than what it keeps', async () => {
    const recent = new RecentTailEvents(countingStore(), 3);
    const all = await recent.readAfter(null, 1000);
    await createTails(2);
    await recent.readAfter(all.checkpoint, 1000); // now holds only the newest 3
    storeReads = [];
    const fromStart = await recent.readAfter(null, 1000);
    expect(ids(fromStart)).toEqual(ids(await direct(null, 1000)));
    expect(storeReads).toEqual([fromStart.events.length]);
  });

  it('returns tail events only', async () => {
    await s.store.append([{ streamId: `other-${s.run}`, expectedVersion: 0, events: [{ eventId: randomUUID(), type: 'Other', data: {} }] }]);
    const recent = new RecentTailEvents(countingStore());
    const got = await recent.readAfter(null, 1000);
    expect(got.events.length).toBeGreaterThan(0);
    expect(got.events.every((e) => e.streamId.startsWith('tail-'))).toBe(true);
    expect(ids(got)).toEqual(ids(await direct(null, 1000)));
  });
});

describe('RecentTailEvents (EventStoreDB adapter, real client, in-memory server)', () => {
  let server: InMemoryEsdbServer;
  let store: EsdbEventStore;
  beforeEach(async () => {
    server = await InMemoryEsdbServer.start();
    store = new EsdbEventStore(server.connectionString);
  });
  afterEach(async () => {
    await store.close();
    await server.stop();
  });

  it('answers with the checkpoint the store scanned to, and reads on from there: an idle poll scans nothing again', async () => {
    await store.append([{ streamId: 'tail-1', expectedVersion: 0, events: [{ eventId: newEventId(), type: 'TailCreated', data: {} }] }]);
    server.seed('other-service', 500); // after the last tail event, another service's events
    const head = await store.headCheckpoint();
    const readAll = jest.spyOn(store, 'readAll');
    const recent = new RecentTailEvents(store);

    const first = await recent.readAfter(null, 100);
    expect(first.events.map((e) => e.streamId)).toEqual(['tail-1']);
    expect(first.checkpoint).toEqual(head);
    // A reader still at the tail event (the relay), and an idle poll: both answered with the scan's
    // end, and the store is read on from there, not from the last tail event.
    for (const after of [{ value: first.events[0].position }, first.checkpoint]) {
      expect(await recent.readAfter(after, 100)).toEqual({ events: [], checkpoint: head });
      expect(readAll.mock.calls[readAll.mock.calls.length - 1][0]).toEqual(head);
    }
  });
});
