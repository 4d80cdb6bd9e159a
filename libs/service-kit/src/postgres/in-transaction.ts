import type { Pool, PoolClient } from 'pg';

/** Runs `work` on one connection of `pool` inside a transaction: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: Pick<Pool, 'connect'>, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
