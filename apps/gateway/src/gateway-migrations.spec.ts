/** The gateway's migrations against a real PostgreSQL (`DATABASE_URL`): a new database and earlier ones. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPool, runMigrations } from '@tailsync/service-kit';
import { Pool } from 'pg';
import { migratedSchema, schemaLayout, type MigratedSchema } from '@tailsync/service-kit/testing';
import { GATEWAY_MIGRATIONS } from './gateway-migrations';
import { ServiceAccountsStore } from './auth/infrastructure/service-accounts.store';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('gateway-migrations.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe("the gateway's migrations (real PostgreSQL)", () => {
  const pool = createPool(DATABASE_URL, 4);
  const schemas: MigratedSchema[] = [];
  let fresh: Awaited<ReturnType<typeof schemaLayout>>;

  const migrated = async (sets = [GATEWAY_MIGRATIONS]) => {
    const db = await migratedSchema(pool, sets, 'gw_mig');
    schemas.push(db);
    return db.schema;
  };
  const migrate = (schema: string) => runMigrations(pool, [GATEWAY_MIGRATIONS], { schema, logger: quiet });
  /** Runs `sql` in `schema`, as the code of an earlier version would have. */
  const runIn = (schema: string, sql: string) => pool.query(`begin; set local search_path to "${schema}"; ${sql}; commit;`);

  beforeAll(async () => {
    fresh = await schemaLayout(pool, await migrated());
  });
  afterAll(async () => {
    for (const db of schemas) await db.drop();
    await pool.end();
  });

  it('make the tables, and change nothing when copies run them again at once', async () => {
    const schema = await migrated();
    const runs = await Promise.all([migrate(schema), migrate(schema), migrate(schema)]);
    expect(runs.flat().flatMap((r) => r.applied)).toEqual([]);
    expect(await schemaLayout(pool, schema)).toEqual(fresh);
    expect(fresh.indexes).toEqual(
      expect.arrayContaining([
        'gw_console_signed_out gw_console_signed_out_pkey: btree (nonce)',
        "gw_service_accounts gw_service_accounts_revoked: btree (client_id) WHERE (status <> 'active'::text)",
      ]),
    );
  });

  it('upgrade in place the tables the gateway made at start before there were migrations, keeping the accounts', async () => {
    const schema = await migrated([]);
    await runIn(schema, readFileSync(join(__dirname, 'fixtures', 'tables-before-migrations.sql'), 'utf8'));
    await runIn(schema, "insert into gw_service_accounts (client_id, secret_hash, domain, name, status) values ('sa-1', 'hash', 'acme', 'one', 'disabled')");

    expect((await migrate(schema))[0].applied).toEqual([
      '20261124090000000_service-accounts', '20261124090100000_console-sessions', '20261126130000000_auth-failures', '20261126130100000_tokens-valid-after', '20261126130200000_test-calls',
      '20261128070000000_auth-attempts',
    ]);
    expect(await schemaLayout(pool, schema)).toEqual(fresh);
    expect((await pool.query(`select client_id, status from "${schema}".gw_service_accounts`)).rows).toEqual([{ client_id: 'sa-1', status: 'disabled' }]);
    // An account disabled before tokens_valid_after existed keeps its tokens refused.
    expect((await pool.query(`select tokens_valid_after is not null as revoked from "${schema}".gw_service_accounts`)).rows).toEqual([{ revoked: true }]);
  });

  it("upgrade the first release's accounts table: its accounts become active", async () => {
    const schema = await migrated([]);
    await runIn(schema, `
      create table gw_service_accounts (client_id text primary key, secret_hash text not null, domain text not null, name text not null,
                                        created_at timestamptz not null default now());
      insert into gw_service_accounts (client_id, secret_hash, domain, name) values ('sa-1', 'hash', 'acme', 'one')`);
    await migrate(schema);
    expect(await schemaLayout(pool, schema)).toEqual(fresh);
    const schemaPool = new Pool({ connectionString: DATABASE_URL, max: 1, options: `-c search_path=${schema}` });
    try {
      expect(await new ServiceAccountsStore(schemaPool).find('sa-1')).toMatchObject({ clientId: 'sa-1', status: 'active' });
    } finally {
      await schemaPool.end();
    }
  });
});
