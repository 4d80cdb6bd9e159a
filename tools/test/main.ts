/**
 * `npm test`: runs every project's Jest target through Nx, in two lanes side by side (the e2e
 * files in one, every other project in the other: suite-lanes.ts), each lane with a PostgreSQL and
 * a Kafka of its own (own ports, own data under .data/test/<lane>), and closes with
 * `N passed, N failed`.
 *
 * Tools built from Go source (Jaeger, promtool, Helm, kubeconform) start building at once, in
 * the background; the static checks, the Python venvs and the suites go on beside them, and only
 * the tests that need a tool wait for it, and only the projects and e2e files that need a venv for that venv.
 * The run ends with how long each phase and build took, and what each lane waited for.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { localSecrets, REPO_ROOT, startInfrastructure } from '../stack/infrastructure';
import { serverUser } from '../postgres/server-user';
import { BackgroundToolBuilds, selectedProjects } from './background-tool-builds';
import { spawnTimed } from './timed-child';
import { closingReport } from './reports';
import { PhaseTimes } from './phase-times';
import { StaticChecks, staticChecksReport, type StaticCheckOutcome } from './static-checks';
import { startPreparations } from './test-preparations';
import { firstTestWaits, laneSchedule, waitLines } from './lane-schedule';
import { runLane, type StartNxRun } from './lane-runs';
import { allLaneDataDirs, lanesAtOnce, suiteLanes, type LanePlaces, type SuiteLane } from './suite-lanes';
import { venvsOf } from './test-venvs';

const dataDir = join(REPO_ROOT, '.data', 'test');
const reports = join(dataDir, 'reports');
const log = (line: string) => process.stdout.write(`[test] ${line}\n`);

const places: LanePlaces = {
  dataDir,
  kafkaPort: Number(process.env.TEST_KAFKA_PORT ?? 19092),
  postgresPort: Number(process.env.TEST_POSTGRES_PORT ?? 15432),
};

async function stopLeftovers(): Promise<void> {
  const { stopOrphanedPostgres } = await import('../postgres/embedded-postgres');
  const { stopOrphanedBroker } = await import('../kafka/broker');
  await Promise.all(allLaneDataDirs(places).flatMap((dir) => [stopOrphanedPostgres(join(dir, 'postgres')), stopOrphanedBroker(join(dir, 'kafka'))]));
}

type LaneInfrastructure = Awaited<ReturnType<typeof startInfrastructure>>;

/** Each lane's PostgreSQL and Kafka, started side by side; if one fails, the others are stopped. */
async function startLaneInfrastructures(lanes: SuiteLane[]): Promise<LaneInfrastructure[]> {
  // As root on a new machine the servers' `postgres` user is created first: two lanes would race to.
  await serverUser();
  const started = await Promise.allSettled(
    lanes.map((lane) =>
      startInfrastructure({ dataDir: lane.dataDir, kafkaPort: lane.kafkaPort, postgresPort: lane.postgresPort, database: 'tailsync_test', log: (line) => log(`${lane.name}: ${line}`) }),
    ),
  );
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (!failed) return started.map((s) => (s as PromiseFulfilledResult<LaneInfrastructure>).value);
  await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
  throw failed.reason;
}

/** Starts one Nx run of a lane's projects, on the lane's servers and with its reports folder. */
function startNxRun(lane: SuiteLane, passOn: string[], env: Record<string, string>): StartNxRun {
  return async (run) => {
    const { exit } = spawnTimed(process.execPath, [require.resolve('nx/bin/nx'), 'run-many', '-t', 'test', ...run.selection, '--parallel=1', '--outputStyle=stream', '--skipNxCache', ...passOn], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        ...env,
        NX_DAEMON: 'false',
        NX_NO_CLOUD: 'true',
        NX_TUI: 'false',
        TAILSYNC_TEST_REPORTS: join(reports, lane.name),
        TAILSYNC_TEST_DATA: lane.dataDir,
      },
    });
    return exit;
  };
}

async function main() {
  const phases = new PhaseTimes();
  const args = process.argv.slice(2);
  const builds = BackgroundToolBuilds.start(selectedProjects(args), log);
  let checks: StaticChecks | undefined;
  // The builds and the static checks lead process groups of their own, which Ctrl-C does not reach.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      builds.stop();
      checks?.stop();
      process.kill(process.pid, signal);
    });
  }
  let exitCode = 1;
  try {
    // Every run starts from empty stores, so no test depends on an earlier run (a server left
    // running by a killed earlier run is stopped first, by the launchers, from its pid file).
    await stopLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(reports, { recursive: true });
    // The static checks and the venvs run beside the suites; their outcomes come at the end.
    checks = process.env.TAILSYNC_SKIP_STATIC_CHECKS === '1' ? undefined : new StaticChecks(REPO_ROOT, phases);
    // Only the venvs of the projects the run selects; each lane's runs wait for their own.
    const prepared = startPreparations(join(dataDir, 'preparations'), venvsOf(selectedProjects(args)), phases, log);
    prepared.done.catch(() => undefined);
    const { lanes, passOn } = suiteLanes(args, places);
    const atOnce = lanesAtOnce(process.env);
    const infras = await phases.time('infrastructure', () => startLaneInfrastructures(lanes));
    try {
      log(`ready to run the suites after ${phases.sinceStart().toFixed(1)} s (the static checks and the Python venvs go on beside them)`);
      log(`the lanes run ${atOnce === 2 ? 'side by side' : 'one after another (TEST_LANES_AT_ONCE=1)'}:`);
      for (const lane of lanes) log(`lane ${lane.name}: ${lane.runs}; Kafka on 127.0.0.1:${lane.kafkaPort}, PostgreSQL on 127.0.0.1:${lane.postgresPort}`);
      const suitesStartedAt = Date.now();
      // Not spawnSync: PostgreSQL and Kafka log into pipes this process drains (child-run.ts).
      const run = (lane: SuiteLane, i: number) =>
        phases.time(`lane ${lane.name}`, () => runLane(lane, prepared.venvs, startNxRun(lane, passOn, { ...infras[i].env, ...localSecrets(lane.dataDir), ...prepared.env }), log));
      const ran = await phases.time('suites', async () => {
        if (atOnce === 2) return Promise.all(lanes.map(run));
        const inTurn: Awaited<ReturnType<typeof run>>[] = [];
        for (const [i, lane] of lanes.entries()) inTurn.push(await run(lane, i));
        return inTurn;
      });
      // Nothing left to yield to: the checks still running finish at normal priority.
      checks?.raise();
      const checked: StaticCheckOutcome[] = (await checks?.outcomes) ?? [];
      const staticFailures = checked.filter((outcome) => !outcome.passed);
      const notRun = ran.flatMap((lane) => lane.notRun);
      const { text, ok } = closingReport(reports, REPO_ROOT, ran.every(({ status }) => status === 0) ? 0 : 1, staticFailures.length + notRun.length);
      const laneCpu = ran.map(({ cpuSeconds }, i) => `lane ${lanes[i].name}: ${cpuSeconds.toFixed(1)} CPU-seconds (its Jest runs and what they started; not its servers)`);
      const schedule = laneSchedule(reports, lanes.map((lane) => lane.name), suitesStartedAt);
      const lanesRan = lanes.map(({ name, dataDir }, i) => ({ name, dataDir, startedAt: ran[i].startedAt }));
      for (const line of [...phases.summary(), ...schedule, ...firstTestWaits(reports, lanesRan), ...laneCpu, ...builds.summary(), ...waitLines(lanesRan), ...staticChecksReport(checked, phases)]) log(line);
      log(`suite took ${phases.sinceStart().toFixed(1)} s; Kafka ${infras[0].kafkaVersion}, PostgreSQL ${infras[0].postgresVersion}`);
      process.stdout.write(staticFailures.map(({ name }) => `failed: static check ${name} (its output is above)\n`).join(''));
      process.stdout.write(notRun.map((line) => `failed: ${line}\n`).join(''));
      process.stdout.write(text);
      exitCode = ok ? 0 : 1;
    } finally {
      await Promise.all(infras.map((infra) => infra.stop()));
    }
  } finally {
    builds.stop();
    checks?.stop();
  }
  process.exit(exitCode);
}

main().catch((error) => {
  process.stderr.write(`[test] failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
