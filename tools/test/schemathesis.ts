import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';

const REQUIREMENTS = join(REPO_ROOT, 'e2e', 'schemathesis', 'requirements.txt');

/**
 * Schemathesis (PyPI), the independent OpenAPI checker of e2e/src/openapi.e2e.ts, in a Python
 * venv under .data/tools, installed from the pinned requirements when missing or changed.
 * Returns the executable's path, or throws with pip's output: the suite then fails, it does not
 * skip the check.
 */
export function ensureSchemathesis(log: (line: string) => void): string {
  const venv = join(REPO_ROOT, '.data', 'tools', 'schemathesis');
  const bin = join(venv, 'bin', 'schemathesis');
  const stamp = join(venv, 'requirements.installed');
  const wanted = readFileSync(REQUIREMENTS, 'utf8');
  if (existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return bin;
  const t0 = Date.now();
  rmSync(venv, { recursive: true, force: true });
  run('python3', ['-m', 'venv', venv]);
  run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS]);
  writeFileSync(stamp, wanted);
  log(`schemathesis installed in ${((Date.now() - t0) / 1000).toFixed(1)} s (${venv})`);
  return bin;
}

function run(command: string, args: string[]): void {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${r.error?.message ?? ''}${r.stdout}${r.stderr}`);
}
