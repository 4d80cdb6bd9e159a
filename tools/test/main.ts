/**
 * `npm test`: starts its own PostgreSQL and Kafka (own ports, own data under .data/test),
 * runs every project's Jest target through Nx, and closes with `N passed, N failed`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { localSecrets, REPO_ROOT, startInfrastructure } from '../stack/infrastructure';
import { ensureKafkaConsumerPython } from './kafka-consumer-python';
import { runChild } from './child-run';
import { closingReport } from './reports';
import { ensurePythonVenv } from './python-venv';
import { ensureSchemathesis } from './schemathesis';
import { ensureChromium } from './chromium';
import { ensureGoTool, JAEGER, PROMTOOL } from './go-tools';

const dataDir = join(REPO_ROOT, '.data', 'test');
const reports = join(dataDir, 'reports');
const log = (line: string) => process.stdout.write(`[test] ${line}\n`);

async function stopLeftovers(): Promise<void> {
  const { stopOrphanedPostgres } = await import('../postgres/embedded-postgres');
  const { stopOrphanedBroker } = await import('../kafka/broker');
  await Promise.all([stopOrphanedPostgres(join(dataDir, 'postgres')), stopOrphanedBroker(join(dataDir, 'kafka'))]);
}

/** Static checks run first: a type error or a module-boundary violation fails the suite too. */
function staticChecks(): string[] {
  const failures: string[] = [];
  const steps: [string, string[]][] = [
    // The module-boundary rule reads Nx's project graph; on a fresh clone it must be built first,
    // or the rule silently checks nothing.
    ['project graph', [require.resolve('nx/bin/nx'), 'show', 'projects']],
    ['typecheck', [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.base.json', '--noEmit']],
    ['lint', [join(dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js'), 'apps', 'libs', 'e2e', 'tools', 'bench', '--max-warnings=0']],
  ];
  for (const [name, args] of steps) {
    const t0 = Date.now();
    const run = spawnSync(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', name === 'project graph' ? 'ignore' : 'inherit', 'inherit'], env: { ...process.env, NX_DAEMON: 'false' } });
    log(`${name} ${run.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (run.status !== 0) failures.push(name);
  }
  return failures;
}

async function main() {
  const started = Date.now();
  const staticFailures = process.env.TAILSYNC_SKIP_STATIC_CHECKS === '1' ? [] : staticChecks();
  const schemathesis = ensureSchemathesis(log);
  const kafkaConsumerPython = ensureKafkaConsumerPython(log);
  const chromium = ensureChromium(log);
  const jaeger = ensureGoTool(JAEGER, log);
  const promtool = ensureGoTool(PROMTOOL, log);
  const pythonReceivers = ensurePythonVenv('python-receivers', join(REPO_ROOT, 'e2e', 'python', 'requirements.txt'), log);
  const apiClients = ensurePythonVenv('api-clients', join(REPO_ROOT, 'e2e', 'api-clients', 'requirements.txt'), log);
  // Every run starts from empty stores, so no test depends on an earlier run (a server left
  // running by a killed earlier run is stopped first, by the launchers, from its pid file).
  await stopLeftovers();
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(reports, { recursive: true });
  const infra = await startInfrastructure({
    dataDir,
    kafkaPort: Number(process.env.TEST_KAFKA_PORT ?? 19092),
    postgresPort: Number(process.env.TEST_POSTGRES_PORT ?? 15432),
    database: 'tailsync_test',
    log,
  });
  log(`infrastructure up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  let exitCode = 1;
  try {
    // Not spawnSync: PostgreSQL and Kafka log into pipes this process drains (child-run.ts).
    const nx = await runChild(
      process.execPath,
      [require.resolve('nx/bin/nx'), 'run-many', '-t', 'test', '--parallel=1', '--outputStyle=stream', '--skipNxCache', ...process.argv.slice(2)],
      {
        cwd: REPO_ROOT,
        stdio: 'inherit',
        env: {
          ...process.env,
          ...infra.env,
          ...localSecrets(dataDir),
          NX_DAEMON: 'false',
          NX_NO_CLOUD: 'true',
          NX_TUI: 'false',
          TAILSYNC_TEST_REPORTS: reports,
          TAILSYNC_TEST_DATA: dataDir,
          SCHEMATHESIS_BIN: schemathesis,
          KAFKA_CONSUMER_PYTHON: kafkaConsumerPython,
          TAILSYNC_TEST_PYTHON: join(pythonReceivers, 'bin', 'python'),
          TAILSYNC_API_CLIENTS_PYTHON: join(apiClients, 'bin', 'python'),
          CHROMIUM_PATH: chromium,
          JAEGER_BIN: jaeger,
          PROMTOOL_BIN: promtool,
        },
      },
    );
    const { text, ok } = closingReport(reports, REPO_ROOT, nx, staticFailures.length);
    log(`suite took ${((Date.now() - started) / 1000).toFixed(1)} s; Kafka ${infra.kafkaVersion}, PostgreSQL ${infra.postgresVersion}`);
    process.stdout.write(text);
    exitCode = ok ? 0 : 1;
  } finally {
    await infra.stop();
  }
  process.exit(exitCode);
}

main().catch((error) => {
  process.stderr.write(`[test] failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
