import type { Pool } from 'pg';

/**
 * Runs idempotent DDL in one transaction under a transaction-level advisory lock named
 * `lockName`, so several copies of a process starting at once never race on `create ... if not
 * exists` (which is not safe concurrently in PostgreSQL).
 */
export async function migrateUnderLock(pool: Pool, lockName: string, statements: readonly string[]): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [lockName]);
    for (const sql of statements) await client.query(sql);
    await client.query('commit');
  } catch (error) {
    broken = true;
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release(broken ? true : undefined);
  }
}
