/**
 * PostgresReservations against a real PostgreSQL (`DATABASE_URL`): atomic with the append, and
 * read through the table's key. (Its first fill from the reservation streams earlier versions
 * wrote is tail-sync's migration: tail-sync-migrations.spec.ts.)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createPool } from '@tailsync/service-kit';
import { migratedSchema, type MigratedSchema } from '@tailsync/service-kit/testing';
import { PostgresEventStore, WrongExpectedVersionError } from '@tailsync/event-store';
import { tailSyncMigrations } from '../../../tail-sync-migrations';
import { PostgresTailIdAllocator } from '../ids/postgres-tail-id-allocator';
import { mappedIdClaimed } from '../../domain/reservation.events';
import { mappedIdStreamId, tailStreamId } from '../../domain/stream-ids';
import { PostgresReservations } from './postgres-reservations';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('postgres-reservations.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

const run = randomBytes(4).toString('hex');

describe('PostgresReservations (PostgreSQL)', () => {
  const pool = createPool(DATABASE_URL, 8);
  let db: MigratedSchema;
  let store: PostgresEventStore;
  let ids: PostgresTailIdAllocator;
  let rows: PostgresReservations;

  beforeAll(async () => {
    db = await migratedSchema(pool, tailSyncMigrations('postgres'), 'pr');
    store = new PostgresEventStore(pool, { schema: db.schema });
    ids = new PostgresTailIdAllocator(pool, { schema: db.schema });
    rows = new PostgresReservations(pool, store, { schema: db.schema });
  });

  afterAll(async () => {
    await db?.drop();
    await pool.end();
  });

  it('writes the tail events and the reservation changes together, or neither on a conflict', async () => {
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
    const table = `"${db.schema}".tail_reservations`;
    await pool.query(`insert into ${table} (key, holder, version) select 'mappedid-large-' || i, i, 1 from generate_series(1, 100000) i`);
    await pool.query(`analyze ${table}`);
    const seqScans = async () => {
      // Statistics reach the shared view when the session flushes them: force it, then read a fresh snapshot.
      await pool.query('select pg_stat_force_next_flush()');
      await pool.query('select 1');
      await pool.query('select pg_stat_clear_snapshot()');
      const { rows: stats } = await pool.query<{ n: string }>(
        "select seq_scan::text as n from pg_stat_user_tables where schemaname = $1 and relname = 'tail_reservations'",
        [db.schema],
      );
      return Number(stats[0].n);
    };
    const keys = Array.from({ length: 2000 }, (_, i) => `mappedid-large-${i % 2 === 0 ? i * 50 + 1 : `absent-${i}`}`);
    const before = await seqScans();
    const read = await rows.read(keys);
    expect([...read.values()].filter((r) => r.holder !== null)).toHaveLength(1000);
    expect(await seqScans()).toBe(before);
  });
});
