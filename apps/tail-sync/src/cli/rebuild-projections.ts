/**
 * Rebuilds tail-sync's read model from the event store (`npm run cli -- rebuild-projections`).
 * Safe while tail-sync runs: the rebuild holds the projection's lock and readers keep the old
 * rows until it commits.
 */
import 'reflect-metadata';
import { createEventStore } from '@tailsync/event-store';
import { createPool, loadConfig, runMigrations } from '@tailsync/service-kit';
import { TailSyncConfig } from '../config/tail-sync.config';
import { tailSyncMigrations } from '../tail-sync-migrations';
import { TailsProjection } from '../tails/infrastructure/read-model/tails.projection';

async function main(): Promise<void> {
  const config = loadConfig(TailSyncConfig);
  const pool = createPool(config.DATABASE_URL, 2);
  const eventStore =
    config.EVENT_STORE === 'esdb'
      ? createEventStore({ kind: 'esdb', connectionString: config.EVENTSTORE_CONNECTION_STRING as string })
      : createEventStore({ kind: 'postgres', pool });
  try {
    await runMigrations(pool, tailSyncMigrations(config.EVENT_STORE));
    const projection = new TailsProjection(pool, eventStore);
    const started = Date.now();
    const stats = await projection.rebuild();
    process.stdout.write(`rebuilt the tails read model from ${stats.events} events in ${Date.now() - started} ms\n`);
  } finally {
    await eventStore.close();
    await pool.end();
  }
}

main().catch((error) => {
  process.stderr.write(`rebuild-projections failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
