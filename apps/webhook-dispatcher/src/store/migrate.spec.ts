import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMigrations } from '@tailsync/service-kit';
import { migratedSchema, schemaLayout } from '@tailsync/service-kit/testing';
import { secretId } from '@tailsync/webhooks';
import { Pool } from 'pg';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { infraEnv, newSharedSecret, testConfig } from '../testing/harness';
import { DISPATCHER_MIGRATIONS } from './migrate';

const EVT = 'Product.RiskAssessmentExecuted';

describe('migrating an existing database in place (real PostgreSQL)', () => {
  const schema = `wht_upgrade_${randomBytes(4).toString('hex')}`;
  let pool: Pool;

  beforeAll(async () => {
    pool = new Pool({ connectionString: infraEnv().DATABASE_URL, max: 4, options: `-c search_path="${schema}"` });
    await pool.query(`create schema "${schema}"`);
    // the subscriptions table as the first release created it
    await pool.query(`create table webhook_subscriptions (
      domain text primary key, event_names text[] not null, url text not null, secret_sealed text not null,
      created_at timestamptz not null default now(), updated_at timestamptz not null default now())`);
  });
  afterAll(async () => {
    await pool.query(`drop schema "${schema}" cascade`);
    await pool.end();
  });

  it('adds the new columns, fills in the secret id, and takes re-saving the same secret for no rotation', async () => {
    const runtime = await DispatcherCopy.create({ config: testConfig(), instanceId: 'upgrade', pool });
    const secret = newSharedSecret();
    const sealed = runtime.box.encrypt(secret, 'acme');
    await pool.query(`insert into webhook_subscriptions (domain, event_names, url, secret_sealed, updated_at) values ('acme', $1, 'http://127.0.0.1:9/', $2, now() - interval '1 day')`, [[EVT], sealed]);

    await Promise.all([runtime.migrate(), runtime.migrate()]); // copies starting together
    const { rows } = await pool.query('select secret_id, secret_updated_at = updated_at as same, previous_secret_sealed from webhook_subscriptions');
    expect(rows).toEqual([{ secret_id: secretId(secret), same: true, previous_secret_sealed: null }]);

    const resaved = await runtime.subscriptions.put('acme', { eventNames: [EVT], url: 'http://127.0.0.1:9/', sealedSecret: runtime.box.encrypt(secret, 'acme'), secretId: secretId(secret) }, 60);
    expect(resaved).toMatchObject({ created: false, rotated: false, subscription: { previousSealedSecret: null } });
    runtime.sender.close();
    await runtime.close();
  });
});

describe("the dispatcher's migrations (real PostgreSQL)", () => {
  const pool = new Pool({ connectionString: infraEnv().DATABASE_URL, max: 4 });
  const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
  afterAll(() => pool.end());

  it('upgrade in place the tables the dispatcher made at start before there were migrations, to those of a new database', async () => {
    const fresh = await migratedSchema(pool, [DISPATCHER_MIGRATIONS], 'wht_new');
    const old = await migratedSchema(pool, [], 'wht_old');
    try {
      const fixture = readFileSync(join(__dirname, 'fixtures', 'tables-before-migrations.sql'), 'utf8');
      await pool.query(`begin; set local search_path to "${old.schema}"; ${fixture}; commit;`);
      await pool.query(`insert into "${old.schema}".webhook_deliveries (domain, event_id, event_name, body, status) values ('acme', gen_random_uuid(), $1, '{}', 'skipped')`, [EVT]);

      const [run] = await runMigrations(pool, [DISPATCHER_MIGRATIONS], { schema: old.schema, logger: quiet });
      expect(run.applied).toEqual([
        '20261124090000000_dispatcher-tables', '20261124160000000_subscription-change-notices', '20261126120000000_subscription-event-outbox',
        '20261126160000000_ed25519-signing-keys', '20261126170000000_flow-control', '20261126190000000_fifo-ordering',
        '20261126200000000_delivery-backfill', '20261126210000000_delivery-trace-context', '20261126220000000_delivery-log-partitions',
        '20261128070000000_backfill-jobs', '20261128100000000_withdrawn-signing-keys',
        '20261128100100000_event-feed-order',
      ]);
      expect(await schemaLayout(pool, old.schema)).toEqual(await schemaLayout(pool, fresh.schema));
      expect((await pool.query(`select domain, status from "${old.schema}".webhook_deliveries`)).rows).toEqual([{ domain: 'acme', status: 'skipped' }]);
    } finally {
      await old.drop();
      await fresh.drop();
    }
  });

  it("takes the keys of deleted and HMAC subscriptions out of the JWK Set a day on, and leaves an ed25519 subscription's signing", async () => {
    const WITHDRAWN = '20261128100000000_withdrawn-signing-keys.sql';
    const dir = mkdtempSync(join(tmpdir(), 'dispatcher-migrations-'));
    for (const file of readdirSync(DISPATCHER_MIGRATIONS.dir).filter((f) => f < WITHDRAWN)) copyFileSync(join(DISPATCHER_MIGRATIONS.dir, file), join(dir, file));
    const before = await migratedSchema(pool, [{ ...DISPATCHER_MIGRATIONS, dir }], 'wht_keys');
    const s = before.schema;
    try {
      await pool.query(`insert into "${s}".webhook_subscriptions (domain, event_names, url, signature_scheme, secret_sealed) values
        ('ed', '{x}', 'http://x/', 'ed25519', null), ('hmac', '{x}', 'http://x/', 'hmac-sha256', 'sealed')`);
      await pool.query(`insert into "${s}".webhook_signing_keys (domain, kid, public_key, private_seed_sealed, signs_from, retires_at) values
        ('ed', 'ed-current', 'x', 'p', now(), null), ('hmac', 'hmac-old', 'x', 'p', now(), null), ('gone', 'gone-old', 'x', 'p', now(), null),
        ('gone', 'gone-retiring', 'x', 'p', now(), now() + interval '1 hour')`);
      copyFileSync(join(DISPATCHER_MIGRATIONS.dir, WITHDRAWN), join(dir, WITHDRAWN));
      const [run] = await runMigrations(pool, [{ ...DISPATCHER_MIGRATIONS, dir }], { schema: s, logger: quiet });
      expect(run.applied).toEqual([WITHDRAWN.replace(/\.sql$/, '')]);
      const { rows } = await pool.query(`select kid, case when retires_at is null then 'signs on'
        when retires_at - now() between interval '23 hours 59 minutes' and interval '1 day' then 'a day on' else 'as it was' end as fate
        from "${s}".webhook_signing_keys order by kid`);
      expect(rows).toEqual([
        { kid: 'ed-current', fate: 'signs on' }, { kid: 'gone-old', fate: 'a day on' }, { kid: 'gone-retiring', fate: 'as it was' }, { kid: 'hmac-old', fate: 'a day on' },
      ]);
    } finally {
      await before.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
