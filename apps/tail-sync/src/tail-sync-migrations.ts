import { join } from 'node:path';
import { EVENT_STORE_MIGRATIONS } from '@tailsync/event-store';
import type { MigrationSet } from '@tailsync/service-kit';

/** tail-sync's own tables (`apps/tail-sync/migrations`): read model, reservations, tail ids. */
export const TAIL_SYNC_MIGRATIONS: MigrationSet = {
  name: 'tail-sync',
  dir: join(__dirname, '..', 'migrations'),
  table: 'tail_sync_migrations',
};

/**
 * What tail-sync migrates at start, in order: the event store's tables when its events are in
 * PostgreSQL (first: the reservations' first fill reads them), then its own.
 */
export function tailSyncMigrations(eventStore: string): MigrationSet[] {
  return eventStore === 'postgres' ? [EVENT_STORE_MIGRATIONS, TAIL_SYNC_MIGRATIONS] : [TAIL_SYNC_MIGRATIONS];
}
