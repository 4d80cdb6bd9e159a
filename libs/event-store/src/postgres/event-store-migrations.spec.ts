import { runMigrations } from '@tailsync/service-kit';
import { migratedSchema, schemaLayout } from '@tailsync/service-kit/testing';
import { Pool } from 'pg';
import { newEvent } from '../event-store.contract';
import { EVENT_STORE_MIGRATIONS } from './event-store-migrations';
import { PostgresEventStore } from './postgres-event-store';
import { tablesBeforeMigrations } from './tables-before-migrations.test-support';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('event-store-migrations.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('the event store migrations (real PostgreSQL)', () => {
  const pool = new Pool({ connectionString: DATABASE_URL, max: 8 });
  const drops: (() => Promise<void>)[] = [];
  let fresh: Awaited<ReturnType<typeof schemaLayout>>;

  /** An empty schema with `sql` run in it, as the code of an earlier version would have. */
  async function schemaMadeBy(sql: string): Promise<string> {
    const { schema, drop } = await migratedSchema(pool, [], 'es_upgrade');
    drops.push(drop);
    await pool.query(`begin; set local search_path to "${schema}"; ${sql}; commit;`);
    return schema;
  }

  beforeAll(async () => {
    const { schema, drop } = await migratedSchema(pool, [EVENT_STORE_MIGRATIONS], 'es_new');
    drops.push(drop);
    fresh = await schemaLayout(pool, schema);
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
    await pool.end();
  });

  it('make the tables the adapter uses, and leave them alone when copies run them again at once', async () => {
    const { schema, drop } = await migratedSchema(pool, [EVENT_STORE_MIGRATIONS], 'es_again');
    drops.push(drop);
    const runs = await Promise.all(Array.from({ length: 3 }, () => runMigrations(pool, [EVENT_STORE_MIGRATIONS], { schema, logger: quiet })));
    expect(runs.flat().map((r) => r.applied)).toEqual([[], [], []]);
    expect(await schemaLayout(pool, schema)).toEqual(fresh);
    expect(fresh.indexes).toEqual([
      'es_events es_events_event_id_key: btree (event_id)',
      'es_events es_events_pkey: btree (tx, "position")',
      'es_events es_events_stream_version_key: btree (stream_id, version)',
      'es_streams es_streams_pkey: btree (stream_id)',
      'event_store_migrations event_store_migrations_pkey: btree (id)',
    ]);
    const store = new PostgresEventStore(pool, { schema });
    await store.append([{ streamId: 'tail-1', expectedVersion: 0, events: [newEvent('Created')] }]);
    expect((await store.readAll(null, 10)).events.map((e) => e.type)).toEqual(['Created']);
  });

  it('upgrade in place the tables the adapter made at start before there were migrations, keeping their events', async () => {
    const schema = await schemaMadeBy(tablesBeforeMigrations());
    const before = new PostgresEventStore(pool, { schema });
    await before.append([{ streamId: 'tail-1', expectedVersion: 0, events: [newEvent('Created')] }]);

    const [run] = await runMigrations(pool, [EVENT_STORE_MIGRATIONS], { schema, logger: quiet });
    expect(run.applied).toEqual(['20261124090000000_event-store-tables']);
    expect(await schemaLayout(pool, schema)).toEqual(fresh);
    const after = new PostgresEventStore(pool, { schema });
    await after.append([{ streamId: 'tail-1', expectedVersion: 1, events: [newEvent('Changed')] }]);
    expect((await after.readStream('tail-1')).map((e) => e.type)).toEqual(['Created', 'Changed']);
  });

  it('move the primary key of tables made before it was (tx, position), keeping their events', async () => {
    // The tables as earlier versions still made them: the events' key on position, and a second index for readAll.
    const keyOnPosition = tablesBeforeMigrations().replace('primary key (tx, position)', 'primary key (position)');
    expect(keyOnPosition).not.toEqual(tablesBeforeMigrations());
    const schema = await schemaMadeBy(`${keyOnPosition};
      create index es_events_tx_position_idx on es_events (tx, position);
      insert into es_events (stream_id, version, event_id, type, data) values ('old', 1, gen_random_uuid(), 'Old', '{"n": 1}');
      insert into es_streams values ('old', 1)`);

    await runMigrations(pool, [EVENT_STORE_MIGRATIONS], { schema, logger: quiet });
    expect(await schemaLayout(pool, schema)).toEqual(fresh);
    const migrated = new PostgresEventStore(pool, { schema });
    await migrated.append([{ streamId: 'old', expectedVersion: 1, events: [newEvent('New')] }]);
    expect((await migrated.readAll(null, 10)).events.map((e) => [e.type, e.version])).toEqual([
      ['Old', 1],
      ['New', 2],
    ]);
  });
});
