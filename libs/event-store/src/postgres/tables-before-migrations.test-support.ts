import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The statements that made the adapter's tables at start before versioned migrations (an upgrade test's starting point). */
export function tablesBeforeMigrations(): string {
  return readFileSync(join(__dirname, 'fixtures', 'tables-before-migrations.sql'), 'utf8');
}
