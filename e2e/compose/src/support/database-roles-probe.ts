/**
 * What each app's own database role may read, tried from inside the app's container with the
 * app's own DATABASE_URL and password file: a table of each service, and whether the role is a
 * superuser.
 */
import type { ComposeProject } from './compose-project';

/** A table of each service's (tail-sync on the PostgreSQL store: its events too). */
export const TABLE_OF = { gateway: 'gw_service_accounts', 'tail-sync': 'rm_tails', 'tail-sync events': 'es_events', 'webhook-dispatcher': 'webhook_subscriptions' } as const;

const PROBE = `
const { Client } = require('pg');
const url = new URL(process.env.DATABASE_URL);
url.password = encodeURIComponent(require('node:fs').readFileSync(process.env.DATABASE_PASSWORD_FILE, 'utf8').replace(/\\r?\\n$/, ''));
const client = new Client({ connectionString: url.toString() });
(async () => {
  await client.connect();
  const me = (await client.query('select current_user as role, rolsuper as superuser from pg_roles where rolname = current_user')).rows[0];
  const tables = {};
  for (const table of ${JSON.stringify(Object.values(TABLE_OF))}) {
    tables[table] = await client.query('select 1 from ' + table + ' limit 1').then(() => 'allowed', (e) => (e.code === '42501' ? 'permission denied' : 'error ' + e.code));
  }
  await client.end();
  process.stdout.write(JSON.stringify({ ...me, tables }));
})().catch((e) => { process.stderr.write(e.message); process.exit(1); });
`;

export interface RoleProbe {
  role: string;
  superuser: boolean;
  tables: Record<string, string>;
}

export function probeDatabaseRole(stack: ComposeProject, app: string): RoleProbe {
  return JSON.parse(stack.must(['exec', '-T', app, 'node', '-e', PROBE])) as RoleProbe;
}

const APPS = ['gateway', 'tail-sync', 'webhook-dispatcher'] as const;
const OWN: Record<(typeof APPS)[number], string[]> = {
  gateway: [TABLE_OF.gateway],
  'tail-sync': [TABLE_OF['tail-sync'], TABLE_OF['tail-sync events']],
  'webhook-dispatcher': [TABLE_OF['webhook-dispatcher']],
};

/** Each app is its own role (`tailsync_<app>`), no superuser, reading its own tables and refused every other service's. */
export function expectEachAppItsOwnRole(stack: ComposeProject): void {
  for (const app of APPS) {
    const tables = Object.fromEntries(Object.values(TABLE_OF).map((table) => [table, OWN[app].includes(table) ? 'allowed' : 'permission denied']));
    expect({ app, ...probeDatabaseRole(stack, app) }).toEqual({ app, role: `tailsync_${app.replace(/-/g, '_')}`, superuser: false, tables });
  }
}
