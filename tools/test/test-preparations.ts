/**
 * The Python venvs and the browser the tests drive, installed (when missing) beside the start of
 * the suites rather than before it: their paths are known at once and passed to the lanes, and a
 * file under the run's data directory says when the installs are done, or why one failed.
 * `preparationsReady()` (the e2e lane's global set-up, after its stack boots) waits for that file.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { ensureChromium } from './chromium';
import { ensureKafkaConsumerPython, kafkaConsumerPython } from './kafka-consumer-python';
import type { PhaseTimes } from './phase-times';
import { ensurePythonVenv, venvBin } from './python-venv';
import { ensureSchemathesis, schemathesisBin } from './schemathesis';

/** The file (its path, passed to the lanes) that says the preparations are done or failed. */
export const PREPARATIONS_VARIABLE = 'TAILSYNC_PREPARATIONS';
const POLL_MS = 500;

type Outcome = { ok: true } | { ok: false; error: string };

export interface Preparations {
  /** The paths the tests read (SCHEMATHESIS_BIN, ...), usable once `done` resolves. */
  env: Record<string, string>;
  done: Promise<void>;
}

/** Starts the installs; their end (or failure) is written to `file` for the lanes' tests. */
export function startPreparations(file: string, phases: PhaseTimes, log: (line: string) => void): Preparations {
  const receivers = ['python-receivers', join(REPO_ROOT, 'e2e', 'python', 'requirements.txt')] as const;
  const apiClients = ['api-clients', join(REPO_ROOT, 'e2e', 'api-clients', 'requirements.txt')] as const;
  const done = phases.time('python venvs', async () => {
    await Promise.all([ensureSchemathesis(log), ensureKafkaConsumerPython(log), ensurePythonVenv(...receivers, log), ensurePythonVenv(...apiClients, log)]);
  });
  const env = {
    [PREPARATIONS_VARIABLE]: file,
    SCHEMATHESIS_BIN: schemathesisBin(),
    KAFKA_CONSUMER_PYTHON: kafkaConsumerPython(),
    TAILSYNC_TEST_PYTHON: venvBin(receivers[0], 'python'),
    TAILSYNC_API_CLIENTS_PYTHON: venvBin(apiClients[0], 'python'),
    // Found at once (as root on Debian, installed when missing, before the suites start).
    CHROMIUM_PATH: ensureChromium(log),
  };
  // Renamed into place: a waiter never reads a half-written file.
  const record = (outcome: Outcome) => {
    writeFileSync(`${file}.partial`, JSON.stringify(outcome));
    renameSync(`${file}.partial`, file);
  };
  done.then(
    () => record({ ok: true }),
    (error: unknown) => record({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
  return { env, done };
}

/**
 * Waits until the runner's preparations are done (saying so in one line while it waits); throws
 * with the failed install's output. Outside the runner (no TAILSYNC_PREPARATIONS) there is nothing
 * to wait for: the tests then say which variable is missing.
 */
export async function preparationsReady(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<void> {
  const file = process.env[PREPARATIONS_VARIABLE];
  if (!file) return;
  const t0 = Date.now();
  let said = false;
  while (!existsSync(file)) {
    if (!said) log(`[tests] waiting for the Python venvs npm test is installing (${file})`);
    said = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const outcome = JSON.parse(readFileSync(file, 'utf8')) as Outcome;
  if (!outcome.ok) throw new Error(`npm test could not install what the tests need: ${outcome.error}`);
  if (said) log(`[tests] the Python venvs are ready after ${((Date.now() - t0) / 1000).toFixed(1)} s of waiting`);
}
