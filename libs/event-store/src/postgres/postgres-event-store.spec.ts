import { performance } from 'node:perf_hooks';
import { migratedSchema } from '@tailsync/service-kit/testing';
import { Pool } from 'pg';
import { describeEventStoreContract, newEvent, readAllUntil, uniqueId } from '../event-store.contract';
import { DuplicateEventIdError, InvalidAppendError, StreamWrite, WrongExpectedVersionError } from '../event-store.port';
import { createEventStore } from '../index';
import { EVENT_STORE_MIGRATIONS } from './event-store-migrations';
import { PostgresEventStore } from './postgres-event-store';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  throw new Error('postgres-event-store.spec.ts needs DATABASE_URL (a real PostgreSQL server)');
}

/** A store in its own throw-away schema, so test files and runs never collide. */
async function freshStore(options: { maxPool?: number; keptAppendedEvents?: number } = {}) {
  const pool = new Pool({ connectionString: DATABASE_URL, max: options.maxPool ?? 20 });
  const { schema, drop } = await migratedSchema(pool, [EVENT_STORE_MIGRATIONS], 'es_test');
  const store = new PostgresEventStore(pool, { schema, keptAppendedEvents: options.keptAppendedEvents });
  return {
    store,
    pool,
    schema,
    async cleanup() {
      await drop();
      await store.close();
      await pool.end();
    },
  };
}

describeEventStoreContract('postgres', () => freshStore());
// The same contract with every read from the table (appended events not kept in memory).
describeEventStoreContract('postgres, appended events not kept', () => freshStore({ keptAppendedEvents: 0 }));

describe('PostgresEventStore (PostgreSQL specifics)', () => {
  let f: Awaited<ReturnType<typeof freshStore>>;
  beforeAll(async () => {
    f = await freshStore();
  });
  afterAll(async () => {
    await f?.cleanup();
  });

  /** Runs `work` in a transaction of its own: committed if it succeeds, rolled back if it throws. */
  const inTransaction = async <T>(work: (client: import('pg').PoolClient) => Promise<T>): Promise<T> => {
    const client = await f.pool.connect();
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      client.release();
    }
  };

  it('reads the global log in numeric order when positions change digit count (9 → 10, 99 → 100)', async () => {
    // A fresh schema starts positions at 1, so one append of 120 events crosses both boundaries.
    const g = await freshStore({ maxPool: 2 });
    try {
      const events = Array.from({ length: 120 }, (_, i) => newEvent(`E${i}`));
      await g.store.append([{ streamId: 'digits', expectedVersion: 0, events }]);
      const whole = await g.store.readAll(null, 500);
      expect(whole.events.map((e) => e.type)).toEqual(events.map((e) => e.type));
      const paged = await readAllUntil(g.store, null, { pageSize: 7, done: (es) => es.length >= 120 });
      expect(paged.events.map((e) => e.version)).toEqual(events.map((_, i) => i + 1));
    } finally {
      await g.cleanup();
    }
  });

  it('reports the head of the log in numeric order (positions 1..120 in one transaction)', async () => {
    const g = await freshStore({ maxPool: 2 });
    try {
      expect(await g.store.headCheckpoint()).toBeNull();
      const events = Array.from({ length: 120 }, (_, i) => newEvent(`E${i}`));
      const { checkpoint } = await g.store.append([{ streamId: 'digits', expectedVersion: 0, events }]);
      expect(await g.store.headCheckpoint()).toEqual(checkpoint);
    } finally {
      await g.cleanup();
    }
  });

  it('is built by createEventStore and rejects unsafe identifiers', () => {
    expect(createEventStore({ kind: 'postgres', pool: f.pool, schema: f.schema })).toBeInstanceOf(PostgresEventStore);
    expect(() => new PostgresEventStore(f.pool, { schema: 'x"; drop table y; --' })).toThrow(TypeError);
    expect(() => new PostgresEventStore(f.pool, { schema: 'Bad-Schema' })).toThrow(TypeError);
  });

  it('rejects malformed calls before touching the database', async () => {
    const s = uniqueId('bad');
    await expect(f.store.append([{ streamId: s, expectedVersion: 0, events: [{ eventId: 'nope', type: 'X', data: {} }] }])).rejects.toBeInstanceOf(
      InvalidAppendError,
    );
    const e = newEvent();
    await expect(
      f.store.append([
        { streamId: s, expectedVersion: 0, events: [e] },
        { streamId: s, expectedVersion: 'any', events: [newEvent()] },
      ]),
    ).rejects.toBeInstanceOf(InvalidAppendError);
    await expect(f.store.append([{ streamId: s, expectedVersion: 0, events: [e, { ...e }] }])).rejects.toBeInstanceOf(InvalidAppendError);
    await expect(f.store.append([{ streamId: s, expectedVersion: -1, events: [newEvent()] }])).rejects.toBeInstanceOf(InvalidAppendError);
    expect(await f.store.readStream(s)).toEqual([]);
  });

  it('rejects an event id reused by a different event (other stream, other place, other type)', async () => {
    const a = uniqueId('dup');
    const b = uniqueId('dup');
    const e1 = newEvent('First');
    const e2 = newEvent('Second');
    await f.store.append([{ streamId: a, expectedVersion: 0, events: [e1, e2] }]);

    const otherStream = f.store.append([{ streamId: b, expectedVersion: 0, events: [e1] }]);
    await expect(otherStream).rejects.toBeInstanceOf(DuplicateEventIdError);
    await expect(f.store.append([{ streamId: a, expectedVersion: 2, events: [e1] }])).rejects.toBeInstanceOf(DuplicateEventIdError);
    await expect(f.store.append([{ streamId: a, expectedVersion: 'any', events: [e2, e1] }])).rejects.toBeInstanceOf(
      DuplicateEventIdError,
    );
    await expect(f.store.append([{ streamId: a, expectedVersion: 0, events: [{ ...e1, type: 'Other' }, e2] }])).rejects.toBeInstanceOf(
      DuplicateEventIdError,
    );
    // Only part of a write stored -> not a retry of the same call.
    await expect(f.store.append([{ streamId: a, expectedVersion: 0, events: [e1, e2, newEvent()] }])).rejects.toBeInstanceOf(
      DuplicateEventIdError,
    );
    expect(await f.store.readStream(a)).toHaveLength(2);
    expect(await f.store.readStream(b)).toEqual([]);
  });

  it('completes a retried call whose other writes were not stored, and still reports real conflicts', async () => {
    const a = uniqueId('partial');
    const b = uniqueId('partial');
    const wa: StreamWrite = { streamId: a, expectedVersion: 0, events: [newEvent('A')] };
    const wb: StreamWrite = { streamId: b, expectedVersion: 0, events: [newEvent('B')] };
    await f.store.append([wa]);
    const r = await f.store.append([wa, wb]);
    expect(r.streams).toEqual({ [a]: 1, [b]: 1 });
    expect((await f.store.readStream(b)).map((e) => e.type)).toEqual(['B']);

    const c = uniqueId('partial');
    await f.store.append([{ streamId: c, expectedVersion: 0, events: [newEvent('C0')] }]);
    const wc: StreamWrite = { streamId: c, expectedVersion: 0, events: [newEvent('C')] };
    await expect(f.store.append([wa, wc])).rejects.toBeInstanceOf(WrongExpectedVersionError);
  });

  it('never lets readAll skip an event of a slower concurrent transaction', async () => {
    const run = uniqueId('slow');
    const marker = await f.store.append([{ streamId: `${run}-marker`, expectedVersion: 0, events: [newEvent('Marker')] }]);
    await readAllUntil(f.store, marker.checkpoint, { prefixes: [run], done: () => true });

    // Transaction A appends first (gets the lower transaction id) and stays open.
    const slow = await f.pool.connect();
    try {
      await slow.query('begin');
      const a = await f.store.appendAsPartOf(slow, [{ streamId: `${run}-a`, expectedVersion: 0, events: [newEvent('A')] }]);
      // Transaction B starts later and commits first.
      const b = await f.store.append([{ streamId: `${run}-b`, expectedVersion: 0, events: [newEvent('B')] }]);
      expect(f.store.isAtOrAfter(b.checkpoint, a.checkpoint)).toBe(true);

      // While A is in flight, B (committed, but after A in (tx, position) order) must not be returned:
      // a reader that took B and stored its checkpoint would skip A for ever.
      const during = await f.store.readAll(marker.checkpoint, 100, { streamPrefixes: [run] });
      expect(during.events.map((e) => e.type)).toEqual([]);
      expect(during.checkpoint).toEqual(marker.checkpoint);
      const duringUnfiltered = await f.store.readAll(marker.checkpoint, 100);
      expect(duringUnfiltered.events.filter((e) => e.streamId.startsWith(run))).toEqual([]);

      await slow.query('commit');
      const afterCommit = await readAllUntil(f.store, marker.checkpoint, { prefixes: [run], done: (ev) => ev.length >= 2 });
      expect(afterCommit.events.map((e) => e.type)).toEqual(['A', 'B']);
      expect(f.store.isAtOrAfter(afterCommit.checkpoints.at(-1)!, b.checkpoint)).toBe(true);
    } finally {
      await slow.query('rollback').catch(() => undefined);
      slow.release();
    }
  });

  it('appendAsPartOf writes with the caller\'s transaction and reports conflicts on new and existing streams', async () => {
    const [fresh, existing, other] = [uniqueId('part'), uniqueId('part'), uniqueId('part')];
    await f.store.append([{ streamId: existing, expectedVersion: 0, events: [newEvent('First')] }]);

    const written = await inTransaction((c) =>
      f.store.appendAsPartOf(c, [
        { streamId: fresh, expectedVersion: 0, events: [newEvent('Created'), newEvent('Changed')] },
        { streamId: existing, expectedVersion: 1, events: [newEvent('Second')] },
      ]),
    );
    expect(written.streams).toEqual({ [fresh]: 2, [existing]: 2 });
    expect((await f.store.readStream(fresh)).map((e) => e.type)).toEqual(['Created', 'Changed']);
    expect((await f.store.readAll(null, 1_000_000)).events.at(-1)?.position).toBe(written.checkpoint.value);

    // A stream expected new that exists (found by its insert), and a stale version of an existing one.
    const newButTaken = inTransaction((c) =>
      f.store.appendAsPartOf(c, [
        { streamId: other, expectedVersion: 0, events: [newEvent()] },
        { streamId: fresh, expectedVersion: 0, events: [newEvent()] },
      ]),
    );
    await expect(newButTaken).rejects.toMatchObject({ name: 'WrongExpectedVersionError', streamId: fresh, expected: 0 });
    await expect(inTransaction((c) => f.store.appendAsPartOf(c, [{ streamId: existing, expectedVersion: 1, events: [newEvent()] }]))).rejects.toMatchObject({
      name: 'WrongExpectedVersionError',
      streamId: existing,
      actual: 2,
    });
    // Nothing of the failed calls was kept.
    expect(await f.store.readStream(other)).toEqual([]);
    expect((await f.store.readStream(existing)).map((e) => e.type)).toEqual(['First', 'Second']);
  });

  it('keeps the versions of streams created by appendAsPartOf (no stream row) exact under concurrent appends', async () => {
    const partOf = (writes: StreamWrite[]) => inTransaction((c) => f.store.appendAsPartOf(c, writes));
    const streamRow = async (id: string) =>
      (await f.pool.query<{ version: number }>(`select version from "${f.schema}".es_streams where stream_id = $1`, [id])).rows[0]?.version;
    const [a, b, c] = [uniqueId('rowless'), uniqueId('rowless'), uniqueId('rowless')];
    await partOf([
      { streamId: a, expectedVersion: 0, events: [newEvent('A1'), newEvent('A2')] },
      { streamId: b, expectedVersion: 0, events: [newEvent('B1')] },
      { streamId: c, expectedVersion: 0, events: [newEvent('C1')] },
    ]);
    expect(await streamRow(a)).toBeUndefined();

    // Each kind of append reads the version from the events, and the stream gets its row.
    await expect(f.store.append([{ streamId: a, expectedVersion: 0, events: [newEvent()] }])).rejects.toMatchObject({
      name: 'WrongExpectedVersionError',
      actual: 2,
    });
    await expect(partOf([{ streamId: a, expectedVersion: 0, events: [newEvent()] }])).rejects.toMatchObject({ name: 'WrongExpectedVersionError' });
    await expect(partOf([{ streamId: a, expectedVersion: 1, events: [newEvent()] }])).rejects.toMatchObject({ name: 'WrongExpectedVersionError', actual: 2 });
    expect((await partOf([{ streamId: a, expectedVersion: 2, events: [newEvent('A3')] }])).streams).toEqual({ [a]: 3 });
    expect(await streamRow(a)).toBe(3);
    expect((await f.store.append([{ streamId: b, expectedVersion: 'any', events: [newEvent('B2')] }])).streams).toEqual({ [b]: 2 });
    expect(await streamRow(b)).toBe(2);
    // A retried call whose events are stored, and a version check without events.
    const retried = [{ streamId: c, expectedVersion: 1, events: [newEvent('C2')] }];
    await f.store.append(retried);
    expect((await f.store.append([...retried, { streamId: uniqueId('rowless'), expectedVersion: 0, events: [] }])).streams[c]).toBe(2);

    // Ten writers race for the second event of a stream without a row: exactly one wins each round.
    for (let round = 0; round < 5; round++) {
      const d = uniqueId('race');
      await partOf([{ streamId: d, expectedVersion: 0, events: [newEvent('D1')] }]);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          i % 2 === 0
            ? f.store.append([{ streamId: d, expectedVersion: 1, events: [newEvent(`D2.${i}`)] }])
            : partOf([{ streamId: d, expectedVersion: 1, events: [newEvent(`D2.${i}`)] }]),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedVersionError);
      expect((await f.store.readStream(d)).map((e) => e.version)).toEqual([1, 2]);
      expect(await streamRow(d)).toBe(2);
    }

    // Writers with no expectation all land, in a gapless sequence.
    const e = uniqueId('any');
    await partOf([{ streamId: e, expectedVersion: 0, events: [newEvent('E1')] }]);
    await Promise.all(Array.from({ length: 8 }, () => f.store.append([{ streamId: e, expectedVersion: 'any', events: [newEvent('E')] }])));
    expect((await f.store.readStream(e)).map((ev) => ev.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('does not deadlock when concurrent calls touch the same streams in opposite orders', async () => {
    const ids = Array.from({ length: 6 }, () => uniqueId('dl'));
    const calls = Array.from({ length: 24 }, (_, i) => {
      const order = i % 2 === 0 ? ids : [...ids].reverse();
      return f.store.append(order.map((streamId) => ({ streamId, expectedVersion: 'any' as const, events: [newEvent('E', { i })] })));
    });
    await Promise.all(calls);
    const all = await f.store.readStreams(ids);
    for (const id of ids) expect(all.get(id)!.map((e) => e.version)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  });

  it('appends a bulk of 3,000 events across 3,000 streams in one call (timing logged)', async () => {
    const timings: number[] = [];
    for (let run = 0; run < 5; run++) {
      const batch = uniqueId(`bulk${run}`);
      const writes: StreamWrite[] = Array.from({ length: 3000 }, (_, i) => ({
        streamId: `${batch}-tail-${i}`,
        expectedVersion: 0,
        events: [
          newEvent('TailCreated', {
            domain: 'example.org',
            serviceTailId: `svc-${i}`,
            registration: `N${10000 + i}`,
            actor: 'service-account-1',
            at: new Date().toISOString(),
          }),
        ],
      }));
      const t0 = performance.now();
      const r = await f.store.append(writes);
      timings.push(performance.now() - t0);
      expect(Object.keys(r.streams)).toHaveLength(3000);
      if (run === 0) {
        const back = await f.store.readStreams(writes.map((w) => w.streamId));
        expect([...back.values()].every((events) => events.length === 1)).toBe(true);
      }
    }
    // Mixed shape (the bulk command's): 1,000 streams x 3 events, half of them existing streams.
    const batch = uniqueId('bulkmix');
    const existing = Array.from({ length: 500 }, (_, i) => ({ streamId: `${batch}-${i}`, expectedVersion: 0, events: [newEvent()] }));
    await f.store.append(existing);
    const mixed: StreamWrite[] = Array.from({ length: 1000 }, (_, i) => ({
      streamId: `${batch}-${i}`,
      expectedVersion: i < 500 ? 1 : 0,
      events: [newEvent('A', { i }), newEvent('B', { i }), newEvent('C', { i })],
    }));
    const t0 = performance.now();
    await f.store.append(mixed);
    const mixedMs = performance.now() - t0;

    const sorted = [...timings].sort((a, b) => a - b);
    console.log(
      `[event-store] postgres append of 3,000 events across 3,000 new streams in one call: ` +
        `median ${sorted[2].toFixed(1)} ms (runs: ${timings.map((t) => t.toFixed(1)).join(', ')}); ` +
        `3,000 events across 1,000 streams (500 existing): ${mixedMs.toFixed(1)} ms`,
    );
  });
});

describe('PostgresEventStore: readAll serves the events it appended from memory', () => {
  let f: Awaited<ReturnType<typeof freshStore>>;
  /** A second adapter on the same tables that keeps nothing: every read comes from the table. */
  let table: PostgresEventStore;
  beforeAll(async () => {
    f = await freshStore({ keptAppendedEvents: 50 });
    table = new PostgresEventStore(f.pool, { schema: f.schema, keptAppendedEvents: 0 });
  });
  afterAll(async () => {
    await f?.cleanup();
  });

  const data = (i: number) => ({
    zz: i,
    a: { nested: [1, 'two', null, { deep: true }], 'ünï': 'çødé ☃' },
    big: 2 ** 52 + i,
    fraction: 0.1 + i,
    nothing: null,
    text: `quote " backslash \\ newline \n tab \t ${i}`,
  });

  async function checkpointNow(): Promise<import('../event-store.port').AllCheckpoint> {
    const marker = await table.append([{ streamId: uniqueId('marker'), expectedVersion: 0, events: [newEvent('Marker')] }]);
    return marker.checkpoint;
  }

  it('returns what the table returns (pages that split a transaction, a prefix filter, metadata, ids)', async () => {
    const start = await checkpointNow();
    const run = uniqueId('kept');
    await f.store.append([
      { streamId: `${run}-a`, expectedVersion: 0, events: [0, 1, 2].map((i) => newEvent(`A${i}`, data(i), { actor: `x${i}` })) },
      { streamId: `other-${run}`, expectedVersion: 0, events: [newEvent('NotTail', data(9))] },
      { streamId: `${run}-b`, expectedVersion: 0, events: [newEvent('B', data(3))] },
    ]);
    await f.store.append([{ streamId: `${run}-a`, expectedVersion: 3, events: [newEvent('A3', data(4))] }]);

    const fromMemory = await readAllUntil(f.store, start, { prefixes: [run], pageSize: 2, done: (es) => es.length >= 5 });
    const fromTable = await readAllUntil(table, start, { prefixes: [run], pageSize: 2, done: (es) => es.length >= 5 });
    expect(fromMemory.events.map((e) => e.type)).toEqual(['A0', 'A1', 'A2', 'B', 'A3']);
    expect(fromMemory.events).toEqual(fromTable.events);
    expect(fromMemory.checkpoints).toEqual(fromTable.checkpoints);
    // The content came from memory: jsonb orders an object's keys (shorter first), the JSON sent does not.
    expect(Object.keys(fromMemory.events[0].data)).toEqual(['zz', 'a', 'big', 'fraction', 'nothing', 'text']);
    expect(Object.keys(fromTable.events[0].data)).toEqual(['a', 'zz', 'big', 'text', 'nothing', 'fraction']);

    // Each event is served from memory once; reading the range again goes to the table.
    const again = await readAllUntil(f.store, start, { prefixes: [run], pageSize: 100, done: (es) => es.length >= 5 });
    expect(again.events).toEqual(fromTable.events);
    expect(Object.keys(again.events[0].data)).toEqual(['a', 'zz', 'big', 'text', 'nothing', 'fraction']);
  });

  it('never returns events of a rolled-back transaction, and reads past the events it no longer keeps', async () => {
    const start = await checkpointNow();
    const run = uniqueId('rolled');
    const client = await f.pool.connect();
    try {
      await client.query('begin');
      await f.store.appendAsPartOf(client, [{ streamId: `${run}-x`, expectedVersion: 0, events: [newEvent('RolledBack')] }]);
      await client.query('rollback');
    } finally {
      client.release();
    }
    // 60 events in 3 calls: more than the 50 kept, so the oldest come from the table.
    for (let call = 0; call < 3; call++) {
      await f.store.append([
        { streamId: `${run}-${call}`, expectedVersion: 0, events: Array.from({ length: 20 }, (_, i) => newEvent(`E${call}.${i}`, data(i))) },
      ]);
    }
    const fromMemory = await readAllUntil(f.store, start, { prefixes: [run], pageSize: 25, done: (es) => es.length >= 60 });
    const fromTable = await readAllUntil(table, start, { prefixes: [run], pageSize: 25, done: (es) => es.length >= 60 });
    expect(fromMemory.events.map((e) => e.type)).not.toContain('RolledBack');
    expect(fromMemory.events).toHaveLength(60);
    expect(fromMemory.events).toEqual(fromTable.events);
  });
});
