import type { MigrationSet } from './migrations';
import { runMigrations } from './migrations';
import { createPool } from './postgres-pool';

/** What a service migrates: its database (DATABASE_URL) and its sets, read from its settings. */
export interface MigrationPlan {
  databaseUrl: string;
  sets: readonly MigrationSet[];
}

/**
 * The body of a service's `migrate.ts` entry point: runs the plan's sets, prints what ran, and
 * exits; status 1, with the reason, when a setting is wrong or a migration failed.
 */
export async function migrateCommand(service: string, plan: () => MigrationPlan): Promise<never> {
  try {
    const { databaseUrl, sets } = plan();
    const pool = createPool(databaseUrl, 1);
    try {
      await runMigrations(pool, sets);
    } finally {
      await pool.end().catch(() => undefined);
    }
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${service} migrations failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
