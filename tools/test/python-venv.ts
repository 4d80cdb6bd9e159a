import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';

/**
 * A Python venv under .data/tools/<name>, installed with the machine's `python3` from a pinned
 * requirements file when missing or when the file changed (a stamp keeps what was installed).
 * pip runs from the repository root, so a requirements file may name local packages by a path
 * relative to it. Returns the venv's directory, or throws with pip's output: the suite then
 * fails, it does not skip the checks that need the venv.
 */
export function ensurePythonVenv(name: string, requirements: string, log: (line: string) => void): string {
  const venv = join(REPO_ROOT, '.data', 'tools', name);
  const stamp = join(venv, 'requirements.installed');
  const wanted = readFileSync(requirements, 'utf8');
  if (existsSync(join(venv, 'bin', 'python')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return venv;
  const t0 = Date.now();
  rmSync(venv, { recursive: true, force: true });
  run('python3', ['-m', 'venv', venv]);
  run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-r', requirements]);
  writeFileSync(stamp, wanted);
  log(`${name} installed in ${((Date.now() - t0) / 1000).toFixed(1)} s (${venv})`);
  return venv;
}

function run(command: string, args: string[]): void {
  const r = spawnSync(command, args, { encoding: 'utf8', cwd: REPO_ROOT });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${r.error?.message ?? ''}${r.stdout}${r.stderr}`);
}
