/**
 * The Python venvs and the browser the tests drive, installed (when missing) beside the start of
 * the suites rather than before it: their paths are known at once and passed to the lanes. The
 * runner awaits each venv before the projects that use it (`venvs`); a file per venv under the
 * run's preparations directory says when it is installed, or why it failed, for `venvsReady()` (an
 * e2e file that runs a venv waits for its own venvs only: e2e/src/support/venv-waits.ts).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { ensureChromium } from './chromium';
import type { PhaseTimes } from './phase-times';
import { ensurePythonVenv, venvBin } from './python-venv';
import type { TestVenv } from './test-venvs';
import { recordWait } from './test-waits';

/** The directory (its path, passed to the lanes) where a file per venv says it is installed or failed. */
export const PREPARATIONS_VARIABLE = 'TAILSYNC_PREPARATIONS';
const POLL_MS = 500;
/** Of a failed install's output, what its error keeps: pip says what went wrong last. */
const LAST_LINES = 20;

type Outcome = { ok: true } | { ok: false; error: string };

export interface Preparations {
  /** The paths the tests read (SCHEMATHESIS_BIN, ...), usable once their venv is installed. */
  env: Record<string, string>;
  /** Each venv's install, by name: rejects with its name and the install's last lines. */
  venvs: ReadonlyMap<string, Promise<void>>;
  /** Every venv installed, or the failures of those that were not. */
  done: Promise<void>;
}

/** Starts the installs of `venvs`, side by side; each one's end (or failure) is written under `dir` for the lanes' tests. */
export function startPreparations(dir: string, venvs: readonly TestVenv[], phases: PhaseTimes, log: (line: string) => void): Preparations {
  mkdirSync(dir, { recursive: true });
  const installs = new Map(venvs.map((venv) => [venv.name, install(venv, log)] as const));
  // Each outcome is written for the e2e files as soon as it is known; handled here, a failure
  // awaited later by a lane does not end the process as an unhandled rejection meanwhile.
  for (const [name, installing] of installs) {
    installing.then(
      () => record(outcomeFile(dir, name), { ok: true }),
      (error: unknown) => record(outcomeFile(dir, name), { ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  }
  const done = phases.time('python venvs', async () => {
    const failed = (await Promise.allSettled(installs.values())).filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed.length > 0) throw new Error(failed.map((f) => (f.reason instanceof Error ? f.reason.message : String(f.reason))).join('\n'));
  });
  const env = {
    [PREPARATIONS_VARIABLE]: dir,
    ...Object.fromEntries(venvs.map((venv) => [venv.variable, venvBin(venv.name, venv.executable)])),
    // Found at once (as root on Debian, installed when missing, before the suites start).
    CHROMIUM_PATH: ensureChromium(log),
  };
  return { env, venvs: installs, done };
}

function outcomeFile(dir: string, venv: string): string {
  return join(dir, `${venv}.json`);
}

/** Renamed into place: a waiter never reads a half-written file. */
function record(file: string, outcome: Outcome): void {
  writeFileSync(`${file}.partial`, JSON.stringify(outcome));
  renameSync(`${file}.partial`, file);
}

async function install(venv: TestVenv, log: (line: string) => void): Promise<void> {
  try {
    await ensurePythonVenv(venv.name, join(REPO_ROOT, venv.requirements), log);
  } catch (error) {
    const output = (error instanceof Error ? error.message : String(error)).trimEnd().split('\n');
    throw new Error(`the Python venv ${venv.name} (${venv.requirements}) did not install; its last lines:\n${output.slice(-LAST_LINES).join('\n')}`);
  }
}

/**
 * Waits until the runner has installed the venvs `names` (saying so in one line while it waits);
 * throws with a failed install's output. The wait is recorded as `who`'s for the run's closing
 * lines. Outside the runner (no TAILSYNC_PREPARATIONS) there is nothing to wait for: the tests
 * then say which variable is missing.
 */
export async function venvsReady(names: readonly string[], who: string, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<void> {
  const dir = process.env[PREPARATIONS_VARIABLE];
  if (!dir || names.length === 0) return;
  const what = `the Python venv${names.length > 1 ? 's' : ''} ${names.join(', ')}`;
  const t0 = Date.now();
  let said = false;
  while (!names.every((name) => existsSync(outcomeFile(dir, name)))) {
    if (!said) log(`[tests] ${who} waits for ${what} (npm test is installing: ${dir})`);
    said = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const failed = names.map((name) => JSON.parse(readFileSync(outcomeFile(dir, name), 'utf8')) as Outcome).flatMap((outcome) => (outcome.ok ? [] : [outcome.error]));
  if (failed.length > 0) throw new Error(`npm test could not install what ${who} needs: ${failed.join('\n')}`);
  if (!said) return;
  const seconds = (Date.now() - t0) / 1000;
  log(`[tests] ${what} ready for ${who} after ${seconds.toFixed(1)} s of waiting`);
  recordWait(process.env.TAILSYNC_TEST_DATA, { who, what, startedAt: t0, seconds });
}
