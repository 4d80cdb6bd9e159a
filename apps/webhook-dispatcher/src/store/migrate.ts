import { join } from 'node:path';
import { runMigrations, type MigrationLogger, type MigrationSet } from '@tailsync/service-kit';
import type { Pool } from 'pg';

/** The dispatcher's own tables (`apps/webhook-dispatcher/migrations`), written directly. */
export const DISPATCHER_MIGRATIONS: MigrationSet = {
  name: 'webhook-dispatcher',
  dir: join(__dirname, '..', '..', 'migrations'),
  table: 'webhook_dispatcher_migrations',
};

/** Runs the dispatcher's pending migrations, in the pool's schema; copies starting at once run them once. */
export async function migrateDispatcherTables(pool: Pool, logger?: MigrationLogger): Promise<void> {
  await runMigrations(pool, [DISPATCHER_MIGRATIONS], { logger });
}
