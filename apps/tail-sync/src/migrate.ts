/**
 * Runs tail-sync's pending migrations and exits (tail-sync runs them at start too): `node
 * tools/run.js apps/tail-sync/src/migrate.ts`, with DATABASE_URL and EVENT_STORE as for tail-sync.
 */
import 'reflect-metadata';
import { loadConfig, migrateCommand } from '@tailsync/service-kit';
import { TailSyncConfig } from './config/tail-sync.config';
import { tailSyncMigrations } from './tail-sync-migrations';

void migrateCommand('tail-sync', () => {
  const config = loadConfig(TailSyncConfig);
  return { databaseUrl: config.DATABASE_URL, sets: tailSyncMigrations(config.EVENT_STORE) };
});
