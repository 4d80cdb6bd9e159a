/**
 * A replicated PostgreSQL for failover tests, as a managed database with a standby runs it: a
 * primary, a streaming replica it commits to synchronously (a commit is acknowledged once the
 * replica has it on disk, so promoting the replica loses no acknowledged write), and one address
 * in front (HAProxy) that moves to the replica once it is promoted. All from the embedded
 * PostgreSQL binaries, on ports of their own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isAlive, waitForExit } from '../process/process-table';
import { startDatabaseEndpoint, stopOrphanedEndpoint } from './database-endpoint';
import { startEmbeddedPostgres, startPostgresServer, stopOrphanedPostgres, superuserUrl } from './embedded-postgres';
import { onServer } from './on-server';
import { makeStreamingReplica } from './streaming-replica';

export interface ReplicatedPostgresOptions {
  dataDir: string;
  /** The endpoint's port; the primary and the replica listen on the next two. */
  port: number;
  database: string;
  log: (line: string) => void;
}

/** How long each step of a failover took, in milliseconds. */
export interface FailoverTimes {
  killMs: number;
  promoteMs: number;
  moveMs: number;
  totalMs: number;
}

export interface ReplicatedPostgres {
  /** The moving endpoint's URL: what the apps' DATABASE_URL names. */
  url: string;
  /** The servers themselves, for a test's own look (not through the endpoint). */
  primaryUrl: string;
  replicaUrl: string;
  version: string;
  /** SIGKILLs the primary's postmaster and every backend it had, as if its machine were lost. */
  killPrimary(): Promise<void>;
  /** Promotes the replica and waits until it accepts writes. */
  promoteReplica(): Promise<void>;
  /** Sends the endpoint's new connections to the replica. */
  moveEndpointToReplica(): Promise<void>;
  /** The whole failover, in a managed database's order: kill, promote, move. */
  failover(): Promise<FailoverTimes>;
  stop(): Promise<void>;
}

/** The standby's name: its replication slot and its `application_name` as the primary waits for it. */
const STANDBY = 'replica';

export async function startReplicatedPostgres(opts: ReplicatedPostgresOptions): Promise<ReplicatedPostgres> {
  const dataDir = resolve(opts.dataDir);
  const [primaryPort, replicaPort] = [opts.port + 1, opts.port + 2];
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    const primary = await startEmbeddedPostgres({ dataDir: join(dataDir, 'primary'), port: primaryPort, database: opts.database });
    stops.push(primary.stop);
    const primaryPid = primary.pid;
    const primaryUrl = superuserUrl(primaryPort, opts.database);
    await makeStreamingReplica({
      primaryUrl,
      primaryClusterDir: join(dataDir, 'primary', 'cluster'),
      replicaClusterDir: join(dataDir, 'replica', 'cluster'),
      slot: STANDBY,
    });
    const replica = await startPostgresServer({
      dataDir: join(dataDir, 'replica'),
      port: replicaPort,
      readyLine: 'database system is ready to accept read-only connections',
    });
    stops.push(replica.stop);
    await synchronousTo(primaryUrl, STANDBY);
    const endpoint = await startDatabaseEndpoint({ dir: join(dataDir, 'endpoint'), port: opts.port, targetPort: primaryPort, log: opts.log });
    stops.push(endpoint.stop);
    const replicaUrl = superuserUrl(replicaPort, opts.database);
    opts.log(`PostgreSQL ${primary.version}: primary on ${primaryPort}, synchronous replica on ${replicaPort}, endpoint (HAProxy) on ${opts.port}`);

    const killPrimary = async () => {
      const pids = [primaryPid, ...childrenOf(primaryPid)];
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      for (const pid of pids) await waitForExit(pid, 5_000);
      const alive = pids.filter(isAlive);
      if (alive.length) throw new Error(`PostgreSQL processes ${alive.join(', ')} survived SIGKILL`);
    };
    const promoteReplica = () => onServer(replicaUrl, async (client) => {
      const { rows } = await client.query<{ promoted: boolean }>('select pg_promote(true, 60) as promoted');
      if (!rows[0].promoted) throw new Error('the replica was not promoted within 60 s');
    });
    const moveEndpointToReplica = () => endpoint.moveTo(replicaPort);
    return {
      url: superuserUrl(opts.port, opts.database),
      primaryUrl,
      replicaUrl,
      version: primary.version,
      killPrimary,
      promoteReplica,
      moveEndpointToReplica,
      failover: async () => {
        const t0 = Date.now();
        await killPrimary();
        const t1 = Date.now();
        await promoteReplica();
        const t2 = Date.now();
        await moveEndpointToReplica();
        const t3 = Date.now();
        return { killMs: t1 - t0, promoteMs: t2 - t1, moveMs: t3 - t2, totalMs: t3 - t0 };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Stops the servers and the endpoint a killed earlier run left on `dataDir` (before that directory is wiped). */
export async function stopOrphanedReplicatedPostgres(dataDir: string): Promise<void> {
  await Promise.all([stopOrphanedPostgres(join(dataDir, 'primary')), stopOrphanedPostgres(join(dataDir, 'replica')), stopOrphanedEndpoint(join(dataDir, 'endpoint'))]);
}

/** Makes the primary wait for `standby` on every commit, once the standby streams. */
async function synchronousTo(primaryUrl: string, standby: string): Promise<void> {
  await onServer(primaryUrl, async (client) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rowCount } = await client.query(`select 1 from pg_stat_replication where application_name = $1 and state = 'streaming'`, [standby]);
      if (rowCount) break;
      if (Date.now() > deadline) throw new Error(`the replica ${standby} did not stream within 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await client.query(`alter system set synchronous_standby_names = '${standby}'`);
    await client.query('select pg_reload_conf()');
  });
}

/** The pids whose parent is `pid` (PostgreSQL's backends and workers are the postmaster's children). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = /^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (Number(ppid) === pid) children.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return children;
}
