/**
 * PostgreSQL's primary SIGKILLed and its synchronous replica promoted behind one moving address
 * (HAProxy), as a managed database fails over: nothing acknowledged is lost, and the pieces of
 * service-kit that hold PostgreSQL state (the pool, leadership's advisory lock) come back on the
 * new primary by themselves. Its own servers, on ports of their own; no apps, unlike the other
 * fault files: what a failover does to each piece the apps rely on, one at a time.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { advisoryLockKey, createPool, inTransaction, isDependencyDown, LeaderLock, runMigrations } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import createSubscriber from 'pg-listen';
import { onServer, type ReplicatedPostgres, startReplicatedPostgres } from '@tailsync/tools/testing';
import { faultsDataDir } from './support/fault-stack';

/** The fault suite's ports (24000-24499), apart from the other files' (this file runs beside them): the endpoint, then the primary and the replica. */
const PORT = 24460;
/** The migration files of one test. */
const dataDir = join(faultsDataDir(), 'postgres-replication');

const log = (line: string) => console.log(`[pg-failover] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A new primary, replica and endpoint for one test (a failover uses its replica up). */
async function withReplicatedPostgres(test: (db: ReplicatedPostgres) => Promise<void>): Promise<void> {
  // Straight under the suite's data: a killed run's servers are stopped there by the next (tools/test/faults.ts).
  const dir = join(faultsDataDir(), `postgres-replication-${randomUUID().slice(0, 8)}`);
  const db = await startReplicatedPostgres({ dataDir: dir, port: PORT, database: 'failover', log });
  try {
    await test(db);
  } finally {
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Resolves once `ready` holds, checking every 50 ms; throws after `ms`. Resolves with how long it took. */
async function until(ms: number, ready: () => boolean): Promise<number> {
  const t0 = Date.now();
  while (!ready()) {
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await sleep(50);
  }
  return Date.now() - t0;
}

/** Inserts ids through `pool` from 4 concurrent writers until stopped; keeps what was acknowledged and what failed. */
function steadyInserts(pool: Pool) {
  const acknowledged: number[] = [];
  const failures: unknown[] = [];
  let next = 0;
  let writing = true;
  const writer = async () => {
    while (writing) {
      const id = next++;
      try {
        await pool.query('insert into acknowledged (id) values ($1)', [id]);
        acknowledged.push(id);
      } catch (error) {
        failures.push(error);
        await sleep(50);
      }
    }
  };
  const writers = Array.from({ length: 4 }, writer);
  return {
    acknowledged,
    failures,
    stop: async () => {
      writing = false;
      await Promise.all(writers);
    },
  };
}

/** The messages of the failures the apps would not answer with 503 (isDependencyDown: their "try again"). */
const notDependencyDown = (failures: unknown[]) => failures.filter((e) => !isDependencyDown(e)).map((e) => `${(e as { code?: string }).code}: ${(e as Error).message}`);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a replicated PostgreSQL behind one moving address', () => {
  it('loses no acknowledged write when the primary is SIGKILLed under load; the pool goes on on the promoted replica', () =>
    withReplicatedPostgres(async (db) => {
      const pool = createPool(db.url, 8);
      try {
        await pool.query('create table acknowledged (id int primary key)');
        const load = steadyInserts(pool);
        await until(20_000, () => load.acknowledged.length >= 200);
        const times = await db.failover();
        log(`failover: kill ${times.killMs} ms, promote ${times.promoteMs} ms, move ${times.moveMs} ms`);
        const before = load.acknowledged.length;
        const resumedMs = await until(30_000, () => load.acknowledged.length >= before + 100);
        await load.stop();
        log(`writes resumed within ${resumedMs} ms of the move; ${load.failures.length} writes failed meanwhile`);

        const stored = await onServer(db.url, async (c) => {
          const recovery = await c.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
          expect(recovery.rows[0].standby).toBe(false);
          const { rows } = await c.query<{ id: number }>('select id from acknowledged');
          return new Set(rows.map((r) => r.id));
        });
        expect(load.acknowledged.filter((id) => !stored.has(id))).toEqual([]);
        expect(load.failures.length).toBeGreaterThan(0);
        expect(notDependencyDown(load.failures)).toEqual([]);
      } finally {
        await pool.end();
      }
    }), 180_000);

  it('answers writes that reach the replica before its promotion as "dependency down", and takes them once it is promoted', () =>
    withReplicatedPostgres(async (db) => {
      const pool = createPool(db.url, 8);
      try {
        await pool.query('create table acknowledged (id int primary key)');
        const load = steadyInserts(pool);
        await until(20_000, () => load.acknowledged.length >= 100);
        // The endpoint moves first (a stale DNS answer, an endpoint that moved early): for a while
        // every new connection reaches a server that only reads.
        await db.killPrimary();
        await db.moveEndpointToReplica();
        // The dispatcher's LISTEN there fails as "try again" too. (Advisory locks, leadership's,
        // are granted on a standby: they stay exclusive on it, and held through its promotion.)
        const listenRefused = await onServer(db.url, (c) => c.query('listen pg_failover_spec').then(() => 'listening', (e: unknown) => e));
        const readOnly = () => load.failures.filter((e) => (e as { code?: string }).code === '25006').length;
        await until(30_000, () => readOnly() >= 20);
        await db.promoteReplica();
        const before = load.acknowledged.length;
        await until(30_000, () => load.acknowledged.length >= before + 100);
        await load.stop();
        const codes = new Set(load.failures.map((e) => (e as { code?: string }).code));
        log(`failures while the replica only read: ${load.failures.length}, codes ${[...codes].join(', ')}`);
        expect(notDependencyDown(load.failures)).toEqual([]);
        expect(listenRefused).toBeInstanceOf(Error);
        expect(notDependencyDown([listenRefused])).toEqual([]);
      } finally {
        await pool.end();
      }
    }), 180_000);

  it('gives leadership (a session advisory lock) to exactly one copy again on the new primary, never to two at once', () =>
    withReplicatedPostgres(async (db) => {
      const pools = [createPool(db.url, 2), createPool(db.url, 2)];
      let acquisitions = 0;
      const locks = pools.map((pool) => new LeaderLock(pool, advisoryLockKey('pg-failover-spec'), { onAcquired: () => acquisitions++ }));
      let running = true;
      let twoLeaders = 0;
      // Each copy tries every 100 ms, as the relay's standby loop does; a failed try is tried again.
      const copies = locks.map(async (lock) => {
        while (running) {
          await lock.acquire().catch(() => lock.release());
          if (locks.every((l) => l.held)) twoLeaders++;
          await sleep(100);
        }
      });
      try {
        await until(20_000, () => locks.some((l) => l.held));
        expect(acquisitions).toBe(1);
        await db.failover();
        const leaderAgainMs = await until(30_000, () => locks.some((l) => l.held));
        await sleep(2_000);
        log(`a leader again ${leaderAgainMs} ms after the failover`);
        expect(locks.filter((l) => l.held)).toHaveLength(1);
        expect(acquisitions).toBe(2);
        expect(twoLeaders).toBe(0);
        // The leader's lock is on the new primary.
        const holders = await onServer(db.replicaUrl, (c) =>
          c.query(`select 1 from pg_locks where locktype = 'advisory' and granted`).then((r) => r.rowCount),
        );
        expect(holders).toBe(1);
      } finally {
        running = false;
        await Promise.all(copies);
        await Promise.all(locks.map((l) => l.release()));
        await Promise.all(pools.map((p) => p.end()));
      }
    }), 180_000);

  it('listens again (pg-listen, as the dispatcher uses it) once a server it reconnected to before its promotion is promoted', () =>
    withReplicatedPostgres(async (db) => {
      // The dispatcher's subscription cache's settings: reconnect for as long as it takes.
      const subscriber = createSubscriber({ connectionString: db.url }, { parse: (p) => p, serialize: (p: string) => p, retryTimeout: 0, retryInterval: 200, paranoidChecking: 2_000 });
      const received: string[] = [];
      const errors: string[] = [];
      subscriber.notifications.on('pg_failover_spec', (payload: string) => received.push(payload));
      subscriber.events.on('error', (error: Error) => errors.push(error.message));
      await subscriber.connect();
      await subscriber.listenTo('pg_failover_spec');
      try {
        await db.killPrimary();
        await db.moveEndpointToReplica();
        // It reconnects to the standby, where LISTEN is refused.
        await until(30_000, () => errors.some((m) => /LISTEN during recovery/.test(m)));
        await db.promoteReplica();
        const notify = () => onServer(db.replicaUrl, (c) => c.query(`notify pg_failover_spec, 'after'`));
        const t0 = Date.now();
        while (!received.includes('after') && Date.now() - t0 < 15_000) {
          await notify();
          await sleep(500);
        }
        log(`listening again ${Date.now() - t0} ms after the promotion; pg-listen reported ${errors.length} errors`);
        expect(received).toContain('after');
      } finally {
        await subscriber.close().catch(() => undefined);
      }
    }), 180_000);

  it("applies a migration cut off by the failover once, on the new primary (its lock went with the old one)", () =>
    withReplicatedPostgres(async (db) => {
      const dir = join(dataDir, `migrations-${randomUUID().slice(0, 8)}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, '20260101000000000_slow.sql'), '-- Up Migration\ncreate table migrated (id int);\nselect pg_sleep(3);\n');
      const sets = [{ name: 'spec', dir, table: 'spec_migrations' }];
      const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
      const pool = createPool(db.url, 4);
      try {
        // Two copies start at once: one runs the file, the other waits on the lock; the primary dies meanwhile.
        const cutOff = [runMigrations(pool, sets, { logger: quiet }), runMigrations(pool, sets, { logger: quiet })].map((run) => run.then(() => 'applied', (e: unknown) => e));
        await sleep(1_000);
        await db.failover();
        const outcomes = await Promise.all(cutOff);
        expect(outcomes.map((e) => (e instanceof Error && isDependencyDown(e) ? 'try again' : String(e)))).toEqual(['try again', 'try again']);
        // Started again (as their supervisor restarts them), on the new primary.
        const runs = await Promise.all([runMigrations(pool, sets, { logger: quiet }), runMigrations(pool, sets, { logger: quiet })]);
        expect(runs.flatMap((r) => r[0].applied)).toEqual(['20260101000000000_slow']);
        const history = await pool.query('select name from spec_migrations');
        expect(history.rows).toEqual([{ name: '20260101000000000_slow' }]);
        expect((await pool.query('select count(*)::int as n from migrated')).rows[0].n).toBe(0);
      } finally {
        await pool.end();
      }
    }), 180_000);

  it('fails a transaction in flight on the lost primary as "dependency down", without crashing the process', () =>
    withReplicatedPostgres(async (db) => {
      const pool = createPool(db.url, 4);
      try {
        // A checked-out connection, as inTransaction, the event store and the projections hold one.
        const inFlight = inTransaction(pool, (c) => c.query('select pg_sleep(5)')).then(() => 'committed', (e: unknown) => e);
        await sleep(1_000);
        await db.failover();
        const outcome = await inFlight;
        expect(outcome instanceof Error && isDependencyDown(outcome)).toBe(true);
        // The pool dropped the dead connection: the next transaction runs on the new primary.
        await expect(inTransaction(pool, (c) => c.query('select pg_is_in_recovery() as standby').then((r) => r.rows[0].standby))).resolves.toBe(false);
      } finally {
        await pool.end();
      }
    }), 180_000);
});
