import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { underMigrationLock } from './migrate-under-lock';
import { movePrimaryKey, primaryKeyColumns } from './move-primary-key';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('move-primary-key.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

describe('movePrimaryKey (PostgreSQL)', () => {
  const pool = new Pool({ connectionString: DATABASE_URL, max: 4 });
  const table = `mpk_${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    await pool.query(`drop table if exists "${table}"`);
    await pool.end();
  });

  it('moves the key from the old columns once, keeps the rows, drops the redundant index, and then leaves the table alone', async () => {
    await pool.query(`create table "${table}" (id bigint primary key, tenant text not null, note text)`);
    await pool.query(`create index "${table}_tenant_id_idx" on "${table}" (tenant, id)`);
    await pool.query(`insert into "${table}" values (1, 'a', 'x'), (2, 'b', 'y')`);
    const move = { table: `"${table}"`, constraint: `${table}_pkey`, from: ['id'], to: ['tenant', 'id'], redundantIndex: `"${table}_tenant_id_idx"` };

    // Two processes migrating at once: the second, under the lock after the first, finds the new key.
    const migrate = async () => {
      let result = false;
      await underMigrationLock(pool, `mpk:${table}`, async (client) => {
        result = await movePrimaryKey(client, move);
      });
      return result;
    };
    const moved = await Promise.all([migrate(), migrate()]);
    expect(moved.sort()).toEqual([false, true]);
    const client = await pool.connect();
    try {
      expect(await primaryKeyColumns(client, `"${table}"`)).toEqual(['tenant', 'id']);
    } finally {
      client.release();
    }
    const { rows } = await pool.query<{ indexname: string }>('select indexname from pg_indexes where tablename = $1', [table]);
    expect(rows.map((r) => r.indexname)).toEqual([`${table}_pkey`]);
    expect((await pool.query(`select id::int, tenant, note from "${table}" order by id`)).rows).toEqual([
      { id: 1, tenant: 'a', note: 'x' },
      { id: 2, tenant: 'b', note: 'y' },
    ]);
    // The same id in another tenant is now allowed; the same pair is not.
    await pool.query(`insert into "${table}" values (1, 'b', 'z')`);
    await expect(pool.query(`insert into "${table}" values (1, 'b', 'again')`)).rejects.toMatchObject({ code: '23505', constraint: `${table}_pkey` });
  });
});
