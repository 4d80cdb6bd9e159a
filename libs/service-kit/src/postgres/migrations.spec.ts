import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { runMigrations, type MigrationSet } from './migrations';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('migrations.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('runMigrations (node-pg-migrate, real PostgreSQL)', () => {
  const admin = new Pool({ connectionString: DATABASE_URL, max: 2 });
  const dirs: string[] = [];
  const schemas: string[] = [];

  /** A set whose directory holds `files` (name → SQL). */
  function setOf(files: Record<string, string>): MigrationSet & { add(name: string, sql: string): void } {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    dirs.push(dir);
    const add = (name: string, sql: string) => writeFileSync(join(dir, name), sql);
    for (const [name, sql] of Object.entries(files)) add(name, sql);
    return { name: 'spec', dir, table: 'spec_migrations', add };
  }

  async function newSchema(): Promise<string> {
    const schema = `mig_${randomBytes(5).toString('hex')}`;
    schemas.push(schema);
    await admin.query(`create schema "${schema}"`);
    return schema;
  }

  const tablesOf = async (schema: string) =>
    (await admin.query<{ t: string }>('select table_name as t from information_schema.tables where table_schema = $1 order by 1', [schema])).rows.map((r) => r.t);

  afterAll(async () => {
    for (const schema of schemas) await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the files in timestamp order into the connection\'s schema, records them, and runs only new files later', async () => {
    const schema = await newSchema();
    const pool = new Pool({ connectionString: DATABASE_URL, max: 2, options: `-c search_path=${schema}` });
    try {
      const set = setOf({
        '20260102000000000_second.sql': '-- Up Migration\ninsert into things (name) values (\'second\');',
        '20260101000000000_first.sql': '-- Up Migration\ncreate table things (name text primary key);',
      });
      expect(await runMigrations(pool, [set], { logger: quiet })).toEqual([
        { set: 'spec', applied: ['20260101000000000_first', '20260102000000000_second'] },
      ]);
      expect(await runMigrations(pool, [set], { logger: quiet })).toEqual([{ set: 'spec', applied: [] }]);

      set.add('20260103000000000_third.sql', '-- Up Migration\ninsert into things (name) values (\'third\');');
      expect(await runMigrations(pool, [set], { logger: quiet })).toEqual([{ set: 'spec', applied: ['20260103000000000_third'] }]);
      expect((await admin.query(`select name from "${schema}".things order by name`)).rows).toEqual([
        { name: 'second' },
        { name: 'third' },
      ]);
      expect(await tablesOf(schema)).toEqual(['spec_migrations', 'things']);
      const history = await admin.query(`select name from "${schema}".spec_migrations order by id`);
      expect(history.rows.map((r) => r.name)).toEqual(['20260101000000000_first', '20260102000000000_second', '20260103000000000_third']);
      // The pool's own connections keep their search path (the run had a connection of its own).
      expect((await pool.query('select current_schema() as s')).rows[0].s).toBe(schema);
    } finally {
      await pool.end();
    }
  });

  it('runs each file once when several copies start at once', async () => {
    const schema = await newSchema();
    // Not idempotent: a second run of the file would fail on the table, and insert a second row.
    const set = setOf({ '20260101000000000_once.sql': "-- Up Migration\ncreate table once (n int);\ninsert into once values (1);\nselect pg_sleep(0.2);" });
    const pool = new Pool({ connectionString: DATABASE_URL, max: 2 });
    try {
      const runs = await Promise.all(Array.from({ length: 4 }, () => runMigrations(pool, [set], { schema, logger: quiet })));
      expect(runs.map(([run]) => run.applied.length).sort()).toEqual([0, 0, 0, 1]);
      expect((await admin.query(`select count(*)::int as n from "${schema}".once`)).rows[0].n).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it('applies none of the pending files when one fails, and says which set failed', async () => {
    const schema = await newSchema();
    const set = setOf({
      '20260101000000000_good.sql': '-- Up Migration\ncreate table good (n int);',
      '20260102000000000_bad.sql': '-- Up Migration\ncreate table bad (n no_such_type);',
    });
    const errors: string[] = [];
    await expect(runMigrations(admin, [set], { schema, logger: { ...quiet, error: (m) => errors.push(m) } })).rejects.toThrow(
      /^Migrations of spec failed, none of its pending files applied: type "no_such_type" does not exist/,
    );
    expect(errors.join('\n')).toContain('no_such_type');
    expect(await tablesOf(schema)).toEqual(['spec_migrations']);
    expect((await admin.query(`select count(*)::int as n from "${schema}".spec_migrations`)).rows[0].n).toBe(0);
  });

  it('refuses a file older than one that already ran (the order would differ between databases)', async () => {
    const schema = await newSchema();
    const set = setOf({ '20260102000000000_later.sql': '-- Up Migration\ncreate table later (n int);' });
    await runMigrations(admin, [set], { schema, logger: quiet });
    set.add('20260101000000000_earlier.sql', '-- Up Migration\ncreate table earlier (n int);');
    await expect(runMigrations(admin, [set], { schema, logger: quiet })).rejects.toThrow(/20260101000000000_earlier is preceding already run migration 20260102000000000_later/);
  });
});
