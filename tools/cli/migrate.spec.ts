/** `npm run migrate` as an operator runs it, against the real PostgreSQL of the test run. */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Pool } from 'pg';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('migrate.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

const ROOT = join(__dirname, '..', '..');
const migrate = (env: Record<string, string>) =>
  spawnSync(process.execPath, [join(ROOT, 'tools', 'run.js'), join(ROOT, 'tools', 'cli', 'main.ts'), 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('npm run migrate', () => {
  const admin = new Pool({ connectionString: DATABASE_URL, max: 1 });
  const schema = `cli_mig_${randomBytes(5).toString('hex')}`;
  // The services' DATABASE_URL, pointed at a schema of this test's own.
  const url = `${DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;

  beforeAll(() => admin.query(`create schema "${schema}"`));
  afterAll(async () => {
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  });

  it("runs every service's pending migrations, and finds nothing to run the second time", () => {
    const first = migrate({ DATABASE_URL: url, EVENT_STORE: 'postgres' });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout.trim().split('\n')).toEqual([
      'event-store: applied 20261124090000000_event-store-tables',
      'tail-sync: applied 20261124090100000_tail-ids, 20261124090200000_read-model, 20261124090300000_tail-reservations, 20261126130000000_event-log-binding',
      'webhook-dispatcher: applied 20261124090000000_dispatcher-tables, 20261124160000000_subscription-change-notices, 20261126120000000_subscription-event-outbox, 20261126160000000_ed25519-signing-keys, 20261126170000000_flow-control, 20261126190000000_fifo-ordering, 20261126200000000_delivery-backfill, 20261126210000000_delivery-trace-context, 20261126220000000_delivery-log-partitions, 20261128070000000_backfill-jobs, 20261128100000000_withdrawn-signing-keys, 20261128100100000_event-feed-order',
      'gateway: applied 20261124090000000_service-accounts, 20261124090100000_console-sessions, 20261126130000000_auth-failures, 20261126130100000_tokens-valid-after, 20261126130200000_test-calls, 20261128070000000_auth-attempts',
    ]);
    const again = migrate({ DATABASE_URL: url, EVENT_STORE: 'postgres' });
    expect(again.status).toBe(0);
    expect(again.stdout.trim().split('\n')).toEqual([
      'event-store: schema up to date',
      'tail-sync: schema up to date',
      'webhook-dispatcher: schema up to date',
      'gateway: schema up to date',
    ]);
  }, 120_000);

  it('stops at the first service that cannot migrate, saying why', async () => {
    const failed = migrate({ DATABASE_URL: 'mysql://nowhere/tailsync' });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/^tail-sync migrations failed: Invalid configuration:\n {2}DATABASE_URL: DATABASE_URL must be a postgres:\/\/ URL/);
    expect(failed.stdout).toBe('');
  }, 60_000);
});
