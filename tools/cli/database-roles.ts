/**
 * `npm run cli -- database-roles`: one PostgreSQL role per service, each owning only its own
 * tables, none a superuser; the tables an earlier release made as one shared role are handed to
 * their service's role. Run as an admin role; compose's postgres-roles one-shot runs it on every `up`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { databaseUrlWithPassword } from '@tailsync/service-kit';
import { Client } from 'pg';
import { applyServiceRoles, defaultRoleName, SERVICE_ROLE_APPS, type ServiceRole, type ServiceRoleApp } from '../postgres/service-roles';

const envName = (app: ServiceRoleApp, what: string) => `TAILSYNC_POSTGRES_${app.toUpperCase().replace(/-/g, '_')}_${what}`;

export const DATABASE_ROLES_USAGE = `usage: npm run cli -- database-roles [--schema <schema>]
  As the admin of DATABASE_URL (its password in the URL, DATABASE_PASSWORD or DATABASE_PASSWORD_FILE; a role
  that may create roles and owns, or may take over, the tables), creates or updates the roles
  ${SERVICE_ROLE_APPS.map((app) => `${defaultRoleName(app)} (${app})`).join(', ')}: login, no superuser, no
  other power; lets each connect and create tables in the schema (default public); and hands each the tables,
  sequences, views and functions of its service that another role owns (an upgrade from one shared role).
  Names:     ${envName('gateway', 'USERNAME')}, … (APP: GATEWAY, TAIL_SYNC, WEBHOOK_DISPATCHER)
  Passwords: ${envName('gateway', 'PASSWORD')} or ${envName('gateway', 'PASSWORD_FILE')}, …; none: the role's password is left as it is`;

function readPassword(env: NodeJS.ProcessEnv, prefix: (what: string) => string): string | undefined {
  const file = env[prefix('PASSWORD_FILE')];
  return file ? readFileSync(file, 'utf8').replace(/\r?\n$/, '') : env[prefix('PASSWORD')] || undefined;
}

export async function databaseRolesCommand(argv: string[], out: (line: string) => void = console.log, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { schema: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
  if (values.help) {
    out(DATABASE_ROLES_USAGE);
    return 0;
  }
  if (!env.DATABASE_URL) {
    process.stderr.write(`database-roles: DATABASE_URL (the admin's) is required\n${DATABASE_ROLES_USAGE}\n`);
    return 2;
  }
  const adminPassword = readPassword(env, (what) => `DATABASE_${what}`);
  const roles: ServiceRole[] = SERVICE_ROLE_APPS.map((app) => ({
    app,
    name: env[envName(app, 'USERNAME')] || defaultRoleName(app),
    password: readPassword(env, (what) => envName(app, what)),
  }));
  const client = new Client({ connectionString: (adminPassword && databaseUrlWithPassword(env.DATABASE_URL, adminPassword)) || env.DATABASE_URL });
  try {
    await client.connect();
    const report = await applyServiceRoles(client, roles, values.schema);
    out(`database-roles on ${new URL(env.DATABASE_URL).host}:`);
    out(`  roles created: ${report.created.join(', ') || 'none'}; updated: ${report.updated.join(', ') || 'none'}`);
    out(`  handed over: ${report.handedOver.join(', ') || 'nothing (every object has its service\'s role)'}`);
    return 0;
  } catch (error) {
    // pg's errors name the statement's object, never its text (which may carry a password).
    process.stderr.write(`database-roles failed: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// compose's postgres-roles runs this file itself: the image holds this command, not the whole CLI.
if (process.argv[1] === __filename) {
  databaseRolesCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
