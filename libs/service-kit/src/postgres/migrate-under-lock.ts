import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction under a transaction-level advisory lock named `lockName`, so
 * several copies of a process starting at once never race on `create ... if not exists` (which
 * is not safe concurrently in PostgreSQL) or on a one-off fill of a new table.
 */
export async function underMigrationLock(pool: Pool, lockName: string, work: (client: PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [lockName]);
    await work(client);
    await client.query('commit');
  } catch (error) {
    broken = true;
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release(broken ? true : undefined);
  }
}

/** Runs idempotent DDL statements under `underMigrationLock`, then `afterwards` (e.g. a key move) in the same transaction. */
export function migrateUnderLock(
  pool: Pool,
  lockName: string,
  statements: readonly string[],
  afterwards?: (client: PoolClient) => Promise<unknown>,
): Promise<void> {
  return underMigrationLock(pool, lockName, async (client) => {
    for (const sql of statements) await client.query(sql);
    await afterwards?.(client);
  });
}
