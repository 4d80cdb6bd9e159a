import { Client } from 'pg';

/**
 * Starts a workload on a quiet database: earlier loads' dead tuples vacuumed, statistics fresh,
 * dirty pages written. Otherwise the autovacuum and checkpoint W2's writes set off land in a later
 * window at a time that varies from run to run (docs/performance.md, "Latest results").
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
