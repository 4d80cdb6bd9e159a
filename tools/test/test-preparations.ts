/**
 * The Python venvs and the browser the tests drive, installed (when missing) beside the start of
 * the suites rather than before it: their paths are known at once and passed to the lanes. The
 * runner awaits each venv before the projects that use it (`venvs`); a file under the run's data
 * directory says when all are done, or why one failed, for `preparationsReady()` (the e2e lane's
 * global set-up, after its stack boots).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { ensureChromium } from './chromium';
import type { PhaseTimes } from './phase-times';
import { ensurePythonVenv, venvBin } from './python-venv';
import type { TestVenv } from './test-venvs';
import { recordWait } from './test-waits';

/** The file (its path, passed to the lanes) that says the preparations are done or failed. */
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

/** Starts the installs of `venvs`, side by side; their end (or failure) is written to `file` for the lanes' tests. */
export function startPreparations(file: string, venvs: readonly TestVenv[], phases: PhaseTimes, log: (line: string) => void): Preparations {
  const installs = new Map(venvs.map((venv) => [venv.name, install(venv, log)] as const));
  // Awaited by the lanes where needed; until then a failure must not end the process as an unhandled rejection.
  for (const installing of installs.values()) installing.catch(() => undefined);
  const done = phases.time('python venvs', async () => {
    const failed = (await Promise.allSettled(installs.values())).filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed.length > 0) throw new Error(failed.map((f) => (f.reason instanceof Error ? f.reason.message : String(f.reason))).join('\n'));
  });
  const env = {
    [PREPARATIONS_VARIABLE]: file,
    ...Object.fromEntries(venvs.map((venv) => [venv.variable, venvBin(venv.name, venv.executable)])),
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
  return { env, venvs: installs, done };
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
 * Waits until the runner's preparations are done (saying so in one line while it waits); throws
 * with the failed install's output. The wait is recorded as `who`'s for the run's closing lines.
 * Outside the runner (no TAILSYNC_PREPARATIONS) there is nothing to wait for: the tests then say
 * which variable is missing.
 */
export async function preparationsReady(who: string, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<void> {
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
  if (!said) return;
  const seconds = (Date.now() - t0) / 1000;
  log(`[tests] the Python venvs are ready after ${seconds.toFixed(1)} s of waiting`);
  recordWait(process.env.TAILSYNC_TEST_DATA, { who, what: 'the Python venvs', startedAt: t0, seconds });
}
