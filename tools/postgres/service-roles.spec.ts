/**
 * `npm run cli -- database-roles` against the real PostgreSQL of the test run: the services'
 * tables made as one shared admin role (as every release before the roles did), then handed to
 * one role per service, each refused the others' tables and none a superuser.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { SERVICE_ROLE_APPS, type ServiceRoleApp } from './service-roles';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('service-roles.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

const ROOT = join(__dirname, '..', '..');
const cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, [join(ROOT, 'tools', 'run.js'), join(ROOT, 'tools', 'cli', 'main.ts'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });

/** A table of each service, and what each role meets reading it. */
const TABLE_OF: Record<ServiceRoleApp, string> = { gateway: 'gw_service_accounts', 'tail-sync': 'rm_tails', 'webhook-dispatcher': 'webhook_subscriptions' };

describe('database-roles: one PostgreSQL role per service', () => {
  const admin = new Pool({ connectionString: DATABASE_URL, max: 1 });
  const suffix = randomBytes(4).toString('hex');
  const schema = `roles_${suffix}`;
  const names = Object.fromEntries(SERVICE_ROLE_APPS.map((app) => [app, `spec_${suffix}_${app.replace(/-/g, '_')}`])) as Record<ServiceRoleApp, string>;
  const passwords = Object.fromEntries(SERVICE_ROLE_APPS.map((app) => [app, randomBytes(12).toString('hex')])) as Record<ServiceRoleApp, string>;
  const rolesEnv: Record<string, string> = Object.fromEntries(
    SERVICE_ROLE_APPS.flatMap((app) => {
      const prefix = `TAILSYNC_POSTGRES_${app.toUpperCase().replace(/-/g, '_')}`;
      return [[`${prefix}_USERNAME`, names[app]], [`${prefix}_PASSWORD`, passwords[app]]];
    }),
  );
  const inSchema = (url: string) => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const asRole = (app: ServiceRoleApp) => {
    const url = new URL(DATABASE_URL);
    url.username = names[app];
    url.password = passwords[app];
    return new Client({ connectionString: inSchema(url.toString()) });
  };
  const outcome = async (client: Client, sql: string) =>
    client.query(sql).then(() => 'allowed', (error: { code?: string }) => (error.code === '42501' ? 'permission denied' : `error ${error.code}`));

  beforeAll(async () => {
    await admin.query(`create schema "${schema}"`);
    // Every service's tables, made by the admin: the layout of a release with one shared role.
    const migrated = cli(['migrate'], { DATABASE_URL: inSchema(DATABASE_URL), EVENT_STORE: 'postgres' });
    if (migrated.status !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  }, 180_000);

  afterAll(async () => {
    await admin.query(`drop schema if exists "${schema}" cascade`);
    for (const name of Object.values(names)) {
      await admin.query(`drop owned by "${name}"`).catch(() => undefined);
      await admin.query(`drop role if exists "${name}"`);
    }
    await admin.end();
  });

  it("creates the roles and hands each its service's tables and functions, then on a second run changes nothing", async () => {
    const first = cli(['database-roles', '--schema', schema], { DATABASE_URL, ...rolesEnv });
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    expect(first.stdout).toContain(`roles created: ${SERVICE_ROLE_APPS.map((app) => names[app]).join(', ')}`);
    for (const secret of Object.values(passwords)) expect(first.stdout).not.toContain(secret);

    const owners = await admin.query<{ name: string; owner: string }>(
      `select c.relname as name, pg_get_userbyid(c.relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relkind in ('r', 'p', 'S', 'v', 'm') union all
       select p.proname, pg_get_userbyid(p.proowner) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1`,
      [schema],
    );
    const ownerOf = (name: string) => (name.startsWith('gw_') || name.startsWith('gateway_migrations') ? names.gateway : name.startsWith('webhook_') ? names['webhook-dispatcher'] : names['tail-sync']);
    expect(owners.rows.filter((r) => r.owner !== ownerOf(r.name))).toEqual([]);
    expect(owners.rows.length).toBeGreaterThan(20);

    const second = cli(['database-roles', '--schema', schema], { DATABASE_URL, ...rolesEnv });
    expect(second.stdout).toContain(`roles created: none; updated: ${SERVICE_ROLE_APPS.map((app) => names[app]).join(', ')}`);
    expect(second.stdout).toContain("handed over: nothing (every object has its service's role)");
  });

  it("lets each role read and change its own tables only, none being a superuser", async () => {
    for (const app of SERVICE_ROLE_APPS) {
      const client = asRole(app);
      await client.connect();
      try {
        const seen = Object.fromEntries(await Promise.all(SERVICE_ROLE_APPS.map(async (other) => [other, await outcome(client, `select * from ${TABLE_OF[other]} limit 1`)] as const)));
        expect({ app, seen }).toEqual({
          app,
          seen: Object.fromEntries(SERVICE_ROLE_APPS.map((other) => [other, other === app ? 'allowed' : 'permission denied'])),
        });
        // Its own migrations may change its tables: it owns them.
        expect({ app, alter: await outcome(client, `alter table ${TABLE_OF[app]} add column spec_probe int`) }).toEqual({ app, alter: 'allowed' });
        const powers = await client.query('select rolsuper, rolcreaterole, rolcreatedb, rolbypassrls from pg_roles where rolname = current_user');
        expect({ app, powers: powers.rows[0] }).toEqual({ app, powers: { rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false } });
      } finally {
        await client.end();
      }
    }
  });
});
