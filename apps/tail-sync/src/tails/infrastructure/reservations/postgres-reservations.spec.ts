/**
 * PostgresReservations against a real PostgreSQL (`DATABASE_URL`): atomic with the append, and
 * filled from the reservation streams that earlier versions wrote.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createPool } from '@tailsync/service-kit';
import { PostgresEventStore, WrongExpectedVersionError } from '@tailsync/event-store';
import { PostgresTailIdAllocator } from '../ids/postgres-tail-id-allocator';
import type { CreateOrMapResult } from '../../application/create-or-map.use-case';
import { createWriteSide } from '../../application/write-side.test-support';
import { mappedIdClaimed } from '../../domain/reservation.events';
import { mappedIdStreamId, tailNumberStreamId, tailStreamId } from '../../domain/stream-ids';
import { PostgresReservations } from './postgres-reservations';
import { StreamReservations } from './stream-reservations';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('postgres-reservations.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

const run = randomBytes(4).toString('hex');
const prefix = `pr_${run}_`;
const tailIdOf = (r: CreateOrMapResult) => (r.outcome === 'invalid' ? NaN : r.tailId);

describe('PostgresReservations (PostgreSQL)', () => {
  const pool = createPool(DATABASE_URL, 8);
  const store = new PostgresEventStore(pool, { tablePrefix: prefix });
  const ids = new PostgresTailIdAllocator(pool, { sequence: `${prefix}tail_ids` });

  beforeAll(async () => {
    await store.migrate();
    await ids.migrate();
  });

  afterAll(async () => {
    await pool.query(`drop table if exists "${prefix}events", "${prefix}streams", ${prefix}backfilled, ${prefix}atomic, ${prefix}large`);
    await pool.query(`drop sequence if exists ${prefix}tail_ids`);
    await pool.end();
  });

  it('is filled, once, from the reservation streams of an event store written by an earlier version', async () => {
    const streams = new StreamReservations(store);
    const earlier = createWriteSide(store, streams, ids);
    const ctx = { domain: `d-${run}`, source: 'client-a' };
    const [a, b] = (await earlier.createOrMapMany(ctx, [{ mappedId: 'A', tailNumber: 'N1' }, { mappedId: 'B', tailNumber: 'N2' }])).results.map(tailIdOf);
    await earlier.changeTailNumber(ctx, 'B', 'N3'); // N2 released, N3 claimed
    const keys = [
      mappedIdStreamId(ctx.domain, 'client-a', 'A'),
      mappedIdStreamId(ctx.domain, 'client-a', 'B'),
      tailNumberStreamId(ctx.domain, 'N1'),
      tailNumberStreamId(ctx.domain, 'N2'),
      tailNumberStreamId(ctx.domain, 'N3'),
      tailNumberStreamId(ctx.domain, 'N4'),
    ];

    const rows = new PostgresReservations(pool, store, { table: `${prefix}backfilled` });
    await Promise.all([rows.migrate(), rows.migrate()]);
    const read = await rows.read(keys);
    expect(read).toEqual(await streams.read(keys));
    expect([...read.values()].map((r) => r.holder)).toEqual([a, b, a, null, b, null]);

    // From now on the rows decide: the released number goes to a new tail, the held one maps.
    const now = createWriteSide(store, rows, ids);
    const next = await now.createOrMapMany({ domain: ctx.domain, source: 'client-b' }, [
      { mappedId: 'X', tailNumber: 'n2' },
      { mappedId: 'Y', tailNumber: 'n3' },
    ]);
    expect(next.results).toEqual([
      { outcome: 'created', tailId: expect.any(Number) },
      { outcome: 'mapped', tailId: b },
    ]);
    await rows.migrate(); // already there: not filled again
    expect((await rows.read([tailNumberStreamId(ctx.domain, 'N2')])).get(tailNumberStreamId(ctx.domain, 'N2'))?.holder).toBe(
      tailIdOf(next.results[0]),
    );
  });

  it('writes the tail events and the reservation changes together, or neither on a conflict', async () => {
    const rows = new PostgresReservations(pool, store, { table: `${prefix}atomic` });
    await rows.migrate();
    const key = mappedIdStreamId(`d-${run}`, 'client-z', 'M');
    const tailWrite = (tailId: number) => ({
      streamId: tailStreamId(tailId),
      expectedVersion: 0,
      events: [{ eventId: randomUUID(), type: 'Probe', data: { tailId } }],
    });
    const claim = (tailId: number, expectedVersion: number) => ({
      key,
      expectedVersion,
      events: [mappedIdClaimed(tailId)],
      after: { holder: tailId, version: expectedVersion + 1 },
      metadata: {},
    });
    const [first, second, third] = await ids.next(3);

    await rows.write([tailWrite(first)], [claim(first, 0)]);
    // Stale: the key was written since version 0 was read.
    await expect(rows.write([tailWrite(second)], [claim(second, 0)])).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await store.readStream(tailStreamId(second))).toEqual([]);
    // A version that moved on is a conflict too; the right one goes through.
    await expect(rows.write([tailWrite(third)], [claim(third, 5)])).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await store.readStream(tailStreamId(third))).toEqual([]);
    await rows.write([tailWrite(third)], [claim(third, 1)]);
    expect((await rows.read([key])).get(key)).toEqual({ holder: third, version: 2 });
    expect(await store.readStream(tailStreamId(third))).toHaveLength(1);
  });

  it("reads a 1,000-tail call's keys through the primary key, not by scanning a large table", async () => {
    // With PostgreSQL's default costs (random_page_cost 4, for spinning disks) the planner
    // hash-joined 2,000 keys against a full scan of a table of ~80,000 rows: every write batch
    // then cost time in proportion to the number of tails ever created.
    const table = `${prefix}large`;
    const rows = new PostgresReservations(pool, store, { table });
    await rows.migrate();
    await pool.query(`insert into ${table} (key, holder, version) select 'mappedid-large-' || i, i, 1 from generate_series(1, 100000) i`);
    await pool.query(`analyze ${table}`);
    const seqScans = async () => {
      // Statistics reach the shared view when the session flushes them: force it, then read a fresh snapshot.
      await pool.query('select pg_stat_force_next_flush()');
      await pool.query('select 1');
      await pool.query('select pg_stat_clear_snapshot()');
      const { rows: stats } = await pool.query<{ n: string }>('select seq_scan::text as n from pg_stat_user_tables where relname = $1', [table]);
      return Number(stats[0].n);
    };
    const keys = Array.from({ length: 2000 }, (_, i) => `mappedid-large-${i % 2 === 0 ? i * 50 + 1 : `absent-${i}`}`);
    const before = await seqScans();
    const read = await rows.read(keys);
    expect([...read.values()].filter((r) => r.holder !== null)).toHaveLength(1000);
    expect(await seqScans()).toBe(before);
  });
});
