/**
 * Test support (imported by specs only): a real PostgreSQL event store, id allocator and writer in
 * a schema of their own, migrated as tail-sync migrates its database, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { createPool } from '@tailsync/service-kit';
import { migratedSchema } from '@tailsync/service-kit/testing';
import { PostgresEventStore } from '@tailsync/event-store';
import { PostgresTailIdAllocator } from '../ids/postgres-tail-id-allocator';
import type { CreateOrMapOutcome } from '@tailsync/contracts';
import { createWriteSide, type WriteSide } from '../../commands/write-side.test-support';
import { tailSyncMigrations } from '../../../tail-sync-migrations';
import { PostgresReservations } from '../reservations/postgres-reservations';
import { StreamReservations } from '../reservations/stream-reservations';

export interface TestStores {
  run: string;
  pool: Pool;
  store: PostgresEventStore;
  ids: PostgresTailIdAllocator;
  /** The write side as tail-sync runs it: each append writes its tails' read-model rows too. */
  writer: WriteSide;
  /**
   * A write side whose appends leave the read model to the projection (reservations as streams,
   * as on EventStoreDB): for specs of the projection itself. Use one writer per domain.
   */
  projectedWriter: WriteSide;
  /** The schema of this run's tables (pass it to the read side's classes). */
  schema: string;
  unique(label: string): string;
  cleanup(): Promise<void>;
}

export async function createTestStores(label: string, databaseUrl: string): Promise<TestStores> {
  const run = randomBytes(4).toString('hex');
  const pool = createPool(databaseUrl, 16);
  pool.on('error', () => undefined);
  const { schema, drop } = await migratedSchema(pool, tailSyncMigrations('postgres'), label);
  const store = new PostgresEventStore(pool, { schema });
  const ids = new PostgresTailIdAllocator(pool, { schema });
  const writer = createWriteSide(store, new PostgresReservations(pool, store, { schema }), ids);
  const projectedWriter = createWriteSide(store, new StreamReservations(store), ids);
  let counter = 0;
  return {
    run,
    pool,
    store,
    ids,
    writer,
    projectedWriter,
    schema,
    unique: (l: string) => `${l}-${run}-${++counter}`,
    cleanup: async () => {
      await drop();
      await pool.end();
    },
  };
}

export function tailIdOf(r: CreateOrMapOutcome): number {
  if (r.outcome === 'invalid') throw new Error(`unexpected invalid result ${JSON.stringify(r)}`);
  return r.tailId;
}
