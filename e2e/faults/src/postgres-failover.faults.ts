/**
 * PostgreSQL's primary SIGKILLed under load and its synchronous replica promoted behind one
 * address that moves (HAProxy, as a managed database's endpoint): the apps reach their database
 * only through that address, and must answer throughout (201, or a 503 problem within the
 * request budget), lose nothing they acknowledged, and pick their leadership, LISTEN connection
 * and pools up again on the new primary by themselves.
 */
import { join } from 'node:path';
import { type ReplicatedPostgres, startReplicatedPostgres } from '@tailsync/tools/testing';
import { expectHeldUp, type FaultStack, PROMTOOL_BUILT, runFault, startFaultStack } from './support';
import { faultsDataDir } from './support/fault-stack';

/** The fault suite's ports (24000-24499): the endpoint, then the primary and the replica. */
const DATABASE_PORT = 24440;

let starting: Promise<ReplicatedPostgres> | undefined;
let db: ReplicatedPostgres;
let stack: FaultStack;

beforeAll(...PROMTOOL_BUILT);

beforeAll(async () => {
  // The database starts beside the stack's brokers; the apps wait for both.
  starting = startReplicatedPostgres({
    dataDir: join(faultsDataDir(), 'postgres-failover-database'),
    port: DATABASE_PORT,
    database: 'tailsync_failover',
    log: (line) => console.log(`[faults] ${line}`),
  });
  stack = await startFaultStack({ name: 'postgres-failover', databaseUrl: starting.then((started) => started.url) });
  db = await starting;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  // Stopped even when the stack failed to start while it was still starting.
  await (await starting?.catch(() => undefined))?.stop();
}, 120_000);

it("PostgreSQL's primary SIGKILLed, the replica promoted behind the moving address: the API answers throughout, nothing is lost or stuck", async () => {
  const outcome = await runFault(stack, {
    name: 'postgres: primary SIGKILLed, replica promoted',
    holdMs: 20_000,
    inject: async () => {
      const times = await db.failover();
      console.log(`[faults] failover: primary killed in ${times.killMs} ms, replica promoted in ${times.promoteMs} ms, endpoint moved in ${times.moveMs} ms`);
      // Nothing to heal: the promoted replica is the primary from now on.
      return async () => undefined;
    },
  });
  expectHeldUp(outcome);
});
