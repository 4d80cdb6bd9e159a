import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Runs a Python script of e2e/python in the venv `npm test` installed, JSON in and JSON out. */
export function runPython<T>(script: string, input: unknown): T {
  const python = process.env.TAILSYNC_TEST_PYTHON;
  if (!python) throw new Error('TAILSYNC_TEST_PYTHON is not set: run the suite with `npm test`, which installs the Python receivers');
  const result = spawnSync(python, [join(__dirname, '..', '..', 'python', script)], { input: JSON.stringify(input), encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${script} failed: ${result.error?.message ?? ''}${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
