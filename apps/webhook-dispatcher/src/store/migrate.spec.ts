import { randomBytes } from 'node:crypto';
import { secretId } from '@tailsync/webhook-signing';
import { Pool } from 'pg';
import { DispatcherRuntime } from '../dispatcher.runtime';
import { infraEnv, newSharedSecret, testConfig } from '../testing/harness';

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
    const runtime = new DispatcherRuntime(testConfig(), 'upgrade', { pool });
    const secret = newSharedSecret();
    const sealed = runtime.box.encrypt(secret, 'acme');
    await pool.query(`insert into webhook_subscriptions (domain, event_names, url, secret_sealed, updated_at) values ('acme', $1, 'http://127.0.0.1:9/', $2, now() - interval '1 day')`, [[EVT], sealed]);

    await Promise.all([runtime.migrate(), runtime.migrate()]); // copies starting together
    const { rows } = await pool.query('select secret_id, secret_updated_at = updated_at as same, previous_secret_sealed from webhook_subscriptions');
    expect(rows).toEqual([{ secret_id: secretId(secret), same: true, previous_secret_sealed: null }]);

    const resaved = await runtime.subscriptions.put('acme', { eventNames: [EVT], url: 'http://127.0.0.1:9/', sealedSecret: runtime.box.encrypt(secret, 'acme'), secretId: secretId(secret) }, 60);
    expect(resaved).toMatchObject({ created: false, rotated: false, subscription: { previousSealedSecret: null } });
    runtime.sender.close();
  });
});
