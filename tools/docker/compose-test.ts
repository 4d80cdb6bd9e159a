/**
 * `npm run test:compose`: the operators' path on a real Docker engine (e2e/compose). Uses the
 * engine that is there or installs and starts one (root on Debian), builds the Compose plugin if
 * missing, builds local stand-ins of the official images unless TAILSYNC_COMPOSE_IMAGES=official,
 * runs the tests and closes with `N passed, N failed`. Not part of `npm test`, so a user without
 * Docker can still run that; `.ci/run` runs both.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { closingReport } from '../test/reports';
import { prepareCompose } from './compose-preparation';
import { ensureDockerEngine } from './docker-engine';
import { ensureKafkaConsumerPython } from '../test/kafka-consumer-python';

const log = (line: string) => process.stdout.write(`[compose-test] ${line}\n`);
const reports = join(REPO_ROOT, '.data', 'compose', 'reports');
/**
 * Files at a time (TAILSYNC_COMPOSE_WORKERS, default 2). Each file's stack has its own project
 * name, ports and image names, so two run side by side: green on a quiet 2-core machine in 400
 * and 460 s, against 638 s one at a time (docs/testing.md, "The compose test").
 */
function filesAtATime(): number {
  const workers = Number(process.env.TAILSYNC_COMPOSE_WORKERS ?? 2);
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`TAILSYNC_COMPOSE_WORKERS must be a whole number from 1, not ${process.env.TAILSYNC_COMPOSE_WORKERS}`);
  return workers;
}

async function main(): Promise<number> {
  const started = Date.now();
  const workers = filesAtATime();
  const engine = await ensureDockerEngine(log);
  try {
    const images = await prepareCompose(log);
    // The integrators' consumer in another language (confluent-kafka), configured from the AsyncAPI document.
    const consumerPython = await ensureKafkaConsumerPython(log);
    rmSync(reports, { recursive: true, force: true });
    mkdirSync(reports, { recursive: true });
    log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s; running e2e/compose, ${workers} files at a time`);
    const jest = spawnSync(process.execPath, [join(REPO_ROOT, 'tools', 'test', 'jest.js'), 'e2e/compose', `--maxWorkers=${workers}`, ...process.argv.slice(2)], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...images, KAFKA_CONSUMER_PYTHON: consumerPython, TAILSYNC_TEST_REPORTS: reports },
    });
    const { text, ok } = closingReport(reports, REPO_ROOT, jest.status);
    log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    process.stdout.write(text);
    return ok ? 0 : 1;
  } finally {
    await engine.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[compose-test] failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
