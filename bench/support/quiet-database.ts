import { Client } from 'pg';

/**
 * Leaves the database as quiet after a workload as before it: the bulk loads' dead tuples vacuumed,
 * statistics fresh, dirty pages written. Otherwise the autovacuum and the checkpoint W2's writes set
 * off land in a later window at a time that varies from run to run, and the first write of each
 * page after that checkpoint logs the whole page: W1 measured 1,500-2,900 req/s for the same code.
 */
export async function quietDatabase(databaseUrl: string | undefined): Promise<number> {
  if (!databaseUrl) return 0;
  const started = Date.now();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('vacuum (analyze)');
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
  return (Date.now() - started) / 1000;
}
