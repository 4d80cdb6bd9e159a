/**
 * `npm run test:faults`: the fault suite (e2e/faults). The runner starts a PostgreSQL; the files
 * of the `stack` and `endpoint` lanes, one at a time in each, start a stack (three brokers, a
 * database of their own, two copies of each app) on the lane's ports, break the infrastructure
 * under load and check the invariants; the files of the `alone` lane (no apps) run beside them,
 * each lane in a Jest process of its own (e2e/faults/jest.config.js). The run closes with `N passed, N failed`
 * and leaves `.data/faults/report.json` (how long each fault made the API unavailable or slower,
 * and which alerts the rules raised). promtool, which evaluates the rules, builds in the
 * background meanwhile when this machine has not built it; a fault that needs it first waits.
 * Needs root (the network cuts use iptables and a cgroup). A run killed midway leaves servers,
 * apps and cuts behind: the next run stops and heals them first.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDebianExecutable } from '../docker/shell';
import { stopOrphanedBroker } from '../kafka/broker';
import { startEmbeddedPostgres, stopOrphanedPostgres } from '../postgres/embedded-postgres';
import { stopOrphanedReplicatedPostgres } from '../postgres/replicated-postgres';
import { healEveryCut } from '@tailsync/service-kit/testing';
import { commandLineOf } from '../process/process-table';
import { REPO_ROOT } from '../stack/infrastructure';
import { BackgroundToolBuilds } from './background-tool-builds';
import { runChild } from './child-run';
import { PROMTOOL } from './go-tools';
import { closingReport } from './reports';

const log = (line: string) => process.stdout.write(`[faults] ${line}\n`);
const dataDir = join(REPO_ROOT, '.data', 'faults');
const reports = join(dataDir, 'reports');
/** The suite's own ports start at 24000 (e2e/faults/src/support/fault-stack.ts). */
const POSTGRES_PORT = 24432;

/** Servers, apps and network cuts a killed earlier run left behind. */
async function stopLeftovers(): Promise<void> {
  healEveryCut();
  if (!existsSync(dataDir)) return;
  const pids = join(dataDir, 'app-pids');
  if (existsSync(pids)) {
    for (const pid of readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number)) {
      // Only an app of this worktree: the pid may have been reused since.
      if (commandLineOf(pid)?.includes(join(REPO_ROOT, 'apps'))) process.kill(pid, 'SIGKILL');
    }
  }
  const stacks = readdirSync(dataDir, { withFileTypes: true }).filter((d) => d.isDirectory() && !['reports', 'postgres'].includes(d.name));
  await Promise.all([
    stopOrphanedPostgres(join(dataDir, 'postgres')),
    ...stacks.map((d) => stopOrphanedBroker(join(dataDir, d.name, 'kafka'))),
    // A file's own replicated database (postgres-failover.faults.ts), where there is one.
    ...stacks.map((d) => stopOrphanedReplicatedPostgres(join(dataDir, d.name))),
  ]);
}

async function main(): Promise<number> {
  const started = Date.now();
  const builds = BackgroundToolBuilds.of([PROMTOOL], log);
  // The build leads a process group of its own, which Ctrl-C does not reach.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      builds.stop();
      process.kill(process.pid, signal);
    });
  }
  try {
    return await prepareAndRun(started);
  } finally {
    builds.stop();
    for (const line of builds.summary()) log(line);
  }
}

async function prepareAndRun(started: number): Promise<number> {
  // Docker's package brings iptables, but the compose test's preparations may not have run yet.
  ensureDebianExecutable('/usr/sbin/iptables', 'iptables', 'for the network cuts of the fault suite', log);
  await stopLeftovers();
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(reports, { recursive: true });
  const postgres = await startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres'), port: POSTGRES_PORT, database: 'tailsync_faults' });
  log(`PostgreSQL ${postgres.version} on 127.0.0.1:${POSTGRES_PORT}: each fault file makes a database of its own there`);
  try {
    return await runSuite(started, postgres.url);
  } finally {
    await postgres.stop();
  }
}

/**
 * The three lanes of e2e/faults/jest.config.js side by side: in `stack` and `endpoint` the files
 * on a stack one after another, each lane's stack on ports of its own (moved by `portOffset`; the
 * suite's ports are 24000-24499), and the files without apps beside them. `endpoint`'s two stacks
 * fit in the time of `stack`'s one, which holds seven 30 s faults. Not niced: the replication file
 * bounds its own writes' time (20 s for 200), which nice 10 on a loaded machine broke.
 */
const LANES = [
  { lane: 'stack', portOffset: 0 },
  { lane: 'endpoint', portOffset: 200 },
  { lane: 'alone', portOffset: 0 },
] as const;

async function runSuite(started: number, postgresUrl: string): Promise<number> {
  // Not spawnSync: this process drains PostgreSQL's log pipe meanwhile (child-run.ts).
  const statuses = await Promise.all(
    LANES.map(({ lane, portOffset }) =>
      runChild(process.execPath, [join(REPO_ROOT, 'tools', 'test', 'jest.js'), 'e2e/faults', '--runInBand', ...process.argv.slice(2)], {
        cwd: REPO_ROOT,
        stdio: 'inherit',
        env: {
          ...process.env,
          TAILSYNC_FAULTS_LANE: lane,
          TAILSYNC_FAULTS_PORT_OFFSET: String(portOffset),
          TAILSYNC_TEST_REPORTS: join(reports, lane),
          TAILSYNC_FAULTS_DATA: dataDir,
          TAILSYNC_FAULTS_POSTGRES_URL: postgresUrl,
        },
      }).then((status) => {
        log(`the ${lane} lane ended after ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return status;
      }),
    ),
  );
  const { text, ok } = closingReport(reports, REPO_ROOT, statuses.find((s) => s !== 0) ?? 0);
  log(`took ${((Date.now() - started) / 1000).toFixed(1)} s; the availability report is in ${join(dataDir, 'report.json')}`);
  process.stdout.write(text);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[faults] failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
