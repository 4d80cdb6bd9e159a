/**
 * Test support (imported by specs only): a real PostgreSQL event store, id allocator and writer on
 * tables and a sequence of their own, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { createPool } from '@tailsync/service-kit';
import { PostgresEventStore } from '@tailsync/event-store';
import { PostgresTailIdAllocator } from '../ids/postgres-tail-id-allocator';
import type { CreateOrMapResult } from '../../application/create-or-map.use-case';
import { createWriteSide, type WriteSide } from '../../application/write-side.test-support';
import { PostgresReservations } from '../reservations/postgres-reservations';

export interface TestStores {
  run: string;
  pool: Pool;
  store: PostgresEventStore;
  ids: PostgresTailIdAllocator;
  writer: WriteSide;
  /** Read-model table prefix of this run. */
  rmPrefix: string;
  unique(label: string): string;
  cleanup(): Promise<void>;
}

export async function createTestStores(label: string, databaseUrl: string): Promise<TestStores> {
  const run = randomBytes(4).toString('hex');
  const esPrefix = `${label}_${run}_es_`;
  const rmPrefix = `${label}_${run}_rm_`;
  const sequence = `${label}_${run}_tail_ids`;
  const pool = createPool(databaseUrl, 16);
  pool.on('error', () => undefined);
  const store = new PostgresEventStore(pool, { tablePrefix: esPrefix });
  await store.migrate();
  const ids = new PostgresTailIdAllocator(pool, { sequence });
  await ids.migrate();
  const reservations = new PostgresReservations(pool, store, { table: `${label}_${run}_reservations` });
  await reservations.migrate();
  const writer = createWriteSide(store, reservations, ids);
  let counter = 0;
  return {
    run,
    pool,
    store,
    ids,
    writer,
    rmPrefix,
    unique: (l: string) => `${l}-${run}-${++counter}`,
    cleanup: async () => {
      await pool.query(
        `drop table if exists "${esPrefix}events", "${esPrefix}streams", "${rmPrefix}tails", "${rmPrefix}tail_mappings", "${rmPrefix}checkpoints", ${reservations.table}`,
      );
      await pool.query(`drop sequence if exists ${sequence}`);
      await pool.end();
    },
  };
}

export function tailIdOf(r: CreateOrMapResult): number {
  if (r.outcome === 'invalid') throw new Error(`unexpected invalid result ${JSON.stringify(r)}`);
  return r.tailId;
}
