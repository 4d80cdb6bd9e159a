import { join } from 'node:path';
import type { MigrationSet } from '@tailsync/service-kit';

/**
 * The PostgreSQL adapter's tables, as versioned migrations (`libs/event-store/migrations`). The
 * service that keeps its events in PostgreSQL runs them at start (`runMigrations`).
 */
export const EVENT_STORE_MIGRATIONS: MigrationSet = {
  name: 'event-store',
  dir: join(__dirname, '..', '..', 'migrations'),
  table: 'event_store_migrations',
};
