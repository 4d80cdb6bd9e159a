/**
 * One PostgreSQL role per service, each owning only its own tables and none a superuser (the
 * contract: "Each service its own database role"). Applied as an admin role that may create roles
 * and change owners; run again and again, it changes only what differs. The tables a release
 * before this made as one shared role are handed to their service's role, found by the name
 * prefixes each service's migrations use (README, "Database migrations").
 */
import type { Client } from 'pg';

export const SERVICE_ROLE_APPS = ['gateway', 'tail-sync', 'webhook-dispatcher'] as const;
export type ServiceRoleApp = (typeof SERVICE_ROLE_APPS)[number];

/** The names a service's tables, sequences, views and functions begin with: its migrations' prefixes and its history tables. */
export const OWNED_PREFIXES: Record<ServiceRoleApp, string[]> = {
  gateway: ['gw_', 'gateway_migrations'],
  'tail-sync': ['rm_', 'tail_', 'es_', 'event_store_migrations'],
  'webhook-dispatcher': ['webhook_'],
};

/** The role's name when none is given: `tailsync_<app>` with underscores. */
export const defaultRoleName = (app: ServiceRoleApp) => `tailsync_${app.replace(/-/g, '_')}`;

export interface ServiceRole {
  app: ServiceRoleApp;
  name: string;
  /** Undefined: the role logs in some other way (certificates, IAM) and keeps whatever password it has. */
  password?: string;
}

export interface ServiceRolesReport {
  created: string[];
  updated: string[];
  /** `<object> → <role>`: what was handed over on this run (none once every object has its owner). */
  handedOver: string[];
}

// Every role attribute that would let a service reach beyond its own tables, refused explicitly.
const LIMITS = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT';

/** The statements that set one role (never logged: they carry its password). */
function roleStatement(client: Client, role: ServiceRole, exists: boolean): string {
  const password = role.password === undefined ? '' : ` PASSWORD ${client.escapeLiteral(role.password)}`;
  return `${exists ? 'ALTER' : 'CREATE'} ROLE ${client.escapeIdentifier(role.name)} ${LIMITS}${password}`;
}

const likeAny = (prefixes: string[]) => prefixes.map((p) => `${p.replace(/_/g, '\\_')}%`);

/**
 * The service's objects in the schema that another role owns: relations, each partition too (an
 * owner change does not reach a table's partitions), but not a sequence a column owns (it follows
 * its table); and functions.
 */
async function objectsToHandOver(client: Client, schema: string, role: ServiceRole): Promise<{ statement: string; name: string }[]> {
  const patterns = likeAny(OWNED_PREFIXES[role.app]);
  const relations = await client.query<{ name: string; kind: string }>(
    `select c.relname as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S') and c.relname like any($2::text[])
        and pg_get_userbyid(c.relowner) <> $3
        and not (c.relkind = 'S' and exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid
          and d.refclassid = 'pg_class'::regclass and d.refobjsubid > 0 and d.deptype in ('a', 'i')))
      order by c.relname`,
    [schema, patterns, role.name],
  );
  const functions = await client.query<{ signature: string; name: string }>(
    `select p.oid::regprocedure::text as signature, p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = $1 and p.proname like any($2::text[]) and pg_get_userbyid(p.proowner) <> $3 order by p.proname`,
    [schema, patterns, role.name],
  );
  const owner = client.escapeIdentifier(role.name);
  const table = (name: string) => `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`;
  return [
    ...relations.rows.map((r) => ({ name: r.name, statement: `ALTER ${r.kind === 'S' ? 'SEQUENCE' : r.kind === 'v' ? 'VIEW' : r.kind === 'm' ? 'MATERIALIZED VIEW' : r.kind === 'f' ? 'FOREIGN TABLE' : 'TABLE'} ${table(r.name)} OWNER TO ${owner}` })),
    // regprocedure's text is already schema-qualified and quoted where needed.
    ...functions.rows.map((f) => ({ name: `${f.name}()`, statement: `ALTER FUNCTION ${f.signature} OWNER TO ${owner}` })),
  ];
}

/**
 * Creates or updates each role (login, no superuser or other power, its password), lets it connect
 * and create its tables in the schema, and hands it the objects of its service another role owns.
 * In one transaction: a failure leaves the database as it was.
 */
export async function applyServiceRoles(client: Client, roles: ServiceRole[], schema = 'public'): Promise<ServiceRolesReport> {
  const report: ServiceRolesReport = { created: [], updated: [], handedOver: [] };
  const database = (await client.query<{ db: string }>('select current_database() as db')).rows[0].db;
  await client.query('BEGIN');
  try {
    for (const role of roles) {
      const exists = (await client.query('select 1 from pg_roles where rolname = $1', [role.name])).rowCount === 1;
      await client.query(roleStatement(client, role, exists));
      (exists ? report.updated : report.created).push(role.name);
      const name = client.escapeIdentifier(role.name);
      await client.query(`GRANT CONNECT ON DATABASE ${client.escapeIdentifier(database)} TO ${name}`);
      await client.query(`GRANT USAGE, CREATE ON SCHEMA ${client.escapeIdentifier(schema)} TO ${name}`);
      for (const object of await objectsToHandOver(client, schema, role)) {
        await client.query(object.statement);
        report.handedOver.push(`${object.name} → ${role.name}`);
      }
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return report;
}
