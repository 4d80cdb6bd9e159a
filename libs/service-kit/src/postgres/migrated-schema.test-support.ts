import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { runMigrations, type MigrationSet } from './migrations';

const quiet = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };

export interface MigratedSchema {
  schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/**
 * A schema of its own (spec files run in parallel on one database) with `sets` migrated into it,
 * as a service's start migrates the database.
 */
export async function migratedSchema(pool: Pool, sets: readonly MigrationSet[], label = 'spec'): Promise<MigratedSchema> {
  const schema = `${label}_${randomBytes(5).toString('hex')}`;
  await pool.query(`create schema "${schema}"`);
  await runMigrations(pool, sets, { schema, logger: quiet });
  return { schema, drop: async () => void (await pool.query(`drop schema if exists "${schema}" cascade`)) };
}
