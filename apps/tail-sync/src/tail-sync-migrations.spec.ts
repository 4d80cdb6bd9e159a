/**
 * tail-sync's migrations against a real PostgreSQL (`DATABASE_URL`): a new database, a database
 * tail-sync's start made before there were migrations, and one older still.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresEventStore } from '@tailsync/event-store';
import { tablesBeforeMigrations } from '@tailsync/event-store/testing';
import { createPool, runMigrations, type MigrationSet } from '@tailsync/service-kit';
import { migratedSchema, schemaLayout, type MigratedSchema } from '@tailsync/service-kit/testing';
import { TAIL_SYNC_MIGRATIONS, tailSyncMigrations } from './tail-sync-migrations';
import type { CreateOrMapOutcome } from '@tailsync/contracts';
import { createWriteSide } from './tails/commands/write-side.test-support';
import { mappedIdStreamId, tailNumberStreamId } from './tails/domain/stream-ids';
import { PostgresTailIdAllocator } from './tails/infrastructure/ids/postgres-tail-id-allocator';
import { PostgresReservations } from './tails/infrastructure/reservations/postgres-reservations';
import { StreamReservations } from './tails/infrastructure/reservations/stream-reservations';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('tail-sync-migrations.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
const tailIdOf = (r: CreateOrMapOutcome) => (r.outcome === 'invalid' ? NaN : r.tailId);

describe("tail-sync's migrations (real PostgreSQL)", () => {
  const pool = createPool(DATABASE_URL, 8);
  const schemas: MigratedSchema[] = [];
  let fresh: Awaited<ReturnType<typeof schemaLayout>>;

  const migrated = async (sets: MigrationSet[]) => {
    const db = await migratedSchema(pool, sets, 'ts_mig');
    schemas.push(db);
    return db.schema;
  };
  const migrate = (schema: string, sets: MigrationSet[]) => runMigrations(pool, sets, { schema, logger: quiet });
  /** Runs `sql` in `schema`, as the code of an earlier version would have. */
  const runIn = (schema: string, sql: string) => pool.query(`begin; set local search_path to "${schema}"; ${sql}; commit;`);

  beforeAll(async () => {
    fresh = await schemaLayout(pool, await migrated(tailSyncMigrations('postgres')));
  });
  afterAll(async () => {
    for (const db of schemas) await db.drop();
    await pool.end();
  });

  it('make the tables and the sequence tail-sync uses, and change nothing when copies run them again at once', async () => {
    const schema = await migrated(tailSyncMigrations('postgres'));
    const runs = await Promise.all(Array.from({ length: 3 }, () => migrate(schema, tailSyncMigrations('postgres'))));
    expect(runs.flat().flatMap((r) => r.applied)).toEqual([]);
    expect(await schemaLayout(pool, schema)).toEqual(fresh);
    expect(fresh.sequences).toContain('tail_ids bigint 1..9223372036854775807 by 1');
    expect(fresh.columns.map((c) => c.split('.')[0])).toEqual(
      expect.arrayContaining(['es_events', 'es_streams', 'rm_checkpoints', 'rm_event_log', 'rm_tail_mappings', 'rm_tails', 'tail_reservations']),
    );
  });

  it('upgrade in place a database tail-sync made at start before there were migrations, keeping its rows', async () => {
    const schema = await migrated([]);
    await runIn(schema, tablesBeforeMigrations());
    await runIn(schema, readFileSync(join(__dirname, 'fixtures', 'tables-before-migrations.sql'), 'utf8'));
    await runIn(schema, `
      select nextval('tail_ids');
      insert into tail_reservations values ('tailnumber-acme-N1', 1, 1);
      insert into rm_checkpoints (name, checkpoint) values ('tails', '7:7');
      insert into rm_tails values (1, 'acme', 'N1', 'N1', null, null, null, null, null, 'active', 1, now(), now())`);

    const runs = await migrate(schema, tailSyncMigrations('postgres'));
    expect(runs.map((r) => [r.set, r.applied.length])).toEqual([
      ['event-store', 1],
      ['tail-sync', readdirSync(TAIL_SYNC_MIGRATIONS.dir).filter((f) => f.endsWith('.sql')).length], // every one of them
    ]);
    expect(await schemaLayout(pool, schema)).toEqual(fresh);
    // The rows are kept; reservations are not filled again (the table was there).
    expect((await pool.query(`select key, holder::int, version from "${schema}".tail_reservations`)).rows).toEqual([
      { key: 'tailnumber-acme-N1', holder: 1, version: 1 },
    ]);
    expect((await pool.query(`select checkpoint from "${schema}".rm_checkpoints`)).rows).toEqual([{ checkpoint: '7:7' }]);
    expect((await pool.query(`select count(*)::int as n from "${schema}".rm_tails`)).rows[0].n).toBe(1);
    expect(await new PostgresTailIdAllocator(pool, { schema }).next(1)).toEqual([2]);
  });

  it('leave the event store\'s tables out when tail-sync keeps its events in EventStoreDB', async () => {
    const schema = await migrated(tailSyncMigrations('esdb'));
    const tables = new Set((await schemaLayout(pool, schema)).columns.map((c) => c.split('.')[0]));
    expect([...tables].sort()).toEqual(['rm_checkpoints', 'rm_event_log', 'rm_tail_mappings', 'rm_tails', 'tail_reservations', 'tail_sync_migrations']);
  });

  it('fill the reservations, once, from the reservation streams of a database older still', async () => {
    // A version before the reservations table kept them as streams of the event store.
    const schema = await migrated(tailSyncMigrations('postgres').filter((set) => set !== TAIL_SYNC_MIGRATIONS));
    await runIn(schema, 'create sequence tail_ids as bigint minvalue 1 start with 1');
    const store = new PostgresEventStore(pool, { schema });
    const ids = new PostgresTailIdAllocator(pool, { schema });
    const streams = new StreamReservations(store);
    const earlier = createWriteSide(store, streams, ids);
    const ctx = { domain: 'acme', source: 'client-a' };
    const [a, b] = (await earlier.createOrMapMany(ctx, [{ mappedId: 'A', tailNumber: 'N1' }, { mappedId: 'B', tailNumber: 'N2' }])).results.map(tailIdOf);
    await earlier.changeTailNumber(ctx, 'B', 'N3'); // N2 released, N3 claimed
    const keys = [
      mappedIdStreamId('acme', 'client-a', 'A'),
      mappedIdStreamId('acme', 'client-a', 'B'),
      tailNumberStreamId('acme', 'N1'),
      tailNumberStreamId('acme', 'N2'),
      tailNumberStreamId('acme', 'N3'),
      tailNumberStreamId('acme', 'N4'),
    ];

    await Promise.all([migrate(schema, [TAIL_SYNC_MIGRATIONS]), migrate(schema, [TAIL_SYNC_MIGRATIONS])]);
    const rows = new PostgresReservations(pool, store, { schema });
    const read = await rows.read(keys);
    expect(read).toEqual(await streams.read(keys));
    expect([...read.values()].map((r) => r.holder)).toEqual([a, b, a, null, b, null]);

    // From now on the rows decide: the released number goes to a new tail, the held one maps.
    const now = createWriteSide(store, rows, ids);
    const next = await now.createOrMapMany({ domain: 'acme', source: 'client-b' }, [
      { mappedId: 'X', tailNumber: 'n2' },
      { mappedId: 'Y', tailNumber: 'n3' },
    ]);
    expect(next.results).toEqual([
      { outcome: 'created', tailId: expect.any(Number) },
      { outcome: 'mapped', tailId: b },
    ]);
    await migrate(schema, [TAIL_SYNC_MIGRATIONS]); // ran already: not filled again
    expect((await rows.read([tailNumberStreamId('acme', 'N2')])).get(tailNumberStreamId('acme', 'N2'))?.holder).toBe(tailIdOf(next.results[0]));
  });
});
