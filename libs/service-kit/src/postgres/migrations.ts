import { runner } from 'node-pg-migrate';
import { Client, type ClientConfig, type Pool } from 'pg';

/** One owner's versioned schema changes: a directory of SQL files and the table recording which ran. */
export interface MigrationSet {
  /** The owner, in logs: a service, or a library whose tables a service keeps. */
  name: string;
  /** The `<timestamp>_<name>.sql` files (node-pg-migrate's SQL format), run in timestamp order. */
  dir: string;
  /** The table, beside the set's own tables, that records each file that ran and when. */
  table: string;
}

/** What one run did to a set: the files it ran (none when the schema was up to date). */
export interface MigrationRun {
  set: string;
  applied: string[];
}

/** Where progress goes: Nest's `Logger` and `console` both fit. */
export interface MigrationLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface MigrationOptions {
  /** The schema of the tables and their history. Default: the connection's current schema. */
  schema?: string;
  logger?: MigrationLogger;
}

/**
 * Runs the pending files of each set, in order, with node-pg-migrate: all of a set's pending files
 * in one transaction, so a failure leaves the set as it was. Copies starting at once wait for each
 * other on a session advisory lock per set and schema (node-pg-migrate's own lock would fail the
 * second copy instead), and then find nothing left to run.
 */
export async function runMigrations(pool: Pool, sets: readonly MigrationSet[], options: MigrationOptions = {}): Promise<MigrationRun[]> {
  const logger = options.logger ?? console;
  // A connection of its own: node-pg-migrate sets its search_path, which must not reach the pool.
  const client = new Client({ ...pool.options } as ClientConfig);
  // A lost server (a failover) fails the statement in flight; unheard, the client's own 'error'
  // event would end the process instead.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const schema = options.schema ?? (await client.query<{ schema: string | null }>('select current_schema() as schema')).rows[0].schema;
    if (!schema) throw new Error('The database connection has no current schema (no schema of its search_path exists): nothing to migrate into');
    const runs: MigrationRun[] = [];
    for (const set of sets) runs.push(await runSet(client, set, schema, logger));
    return runs;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function runSet(client: Client, set: MigrationSet, schema: string, logger: MigrationLogger): Promise<MigrationRun> {
  const lock = [`tailsync.migrations:${schema}.${set.table}`];
  await client.query('select pg_advisory_lock(hashtextextended($1, 0))', lock);
  try {
    const applied = await runner({
      dbClient: client,
      dir: set.dir,
      migrationsTable: set.table,
      schema,
      direction: 'up',
      checkOrder: true,
      singleTransaction: true,
      noLock: true,
      // Its progress lines name each file; the summary below says the same once.
      logger: { info: () => undefined, warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
    });
    const names = applied.map((m) => m.name);
    logger.log(names.length > 0 ? `${set.name}: applied ${names.join(', ')}` : `${set.name}: schema up to date`);
    return { set: set.name, applied: names };
  } catch (error) {
    throw new Error(`Migrations of ${set.name} failed, none of its pending files applied: ${(error as Error).message}`, { cause: error });
  } finally {
    await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', lock).catch(() => undefined);
  }
}
