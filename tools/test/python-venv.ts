import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';

/**
 * A Python venv under .data/tools/<name>, installed with the machine's `python3` from a pinned
 * requirements file when missing or when the file changed (a stamp keeps what was installed).
 * pip runs from the repository root, so a requirements file may name local packages by a path
 * relative to it. Resolves to the venv's directory, or rejects with pip's output: the suite then
 * fails, it does not skip the checks that need the venv. Several install side by side.
 */
export async function ensurePythonVenv(name: string, requirements: string, log: (line: string) => void): Promise<string> {
  const venv = venvDir(name);
  const stamp = join(venv, 'requirements.installed');
  const wanted = readFileSync(requirements, 'utf8');
  if (existsSync(join(venv, 'bin', 'python')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return venv;
  const t0 = Date.now();
  rmSync(venv, { recursive: true, force: true });
  await run('python3', ['-m', 'venv', venv]);
  await run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-r', requirements]);
  writeFileSync(stamp, wanted);
  log(`${name} installed in ${((Date.now() - t0) / 1000).toFixed(1)} s (${venv})`);
  return venv;
}

export function venvDir(name: string): string {
  return join(REPO_ROOT, '.data', 'tools', name);
}

/** An executable of the venv `name` (its `python`, or a program a package installed). */
export function venvBin(name: string, executable: string): string {
  return join(venvDir(name), 'bin', executable);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', (error) => reject(new Error(`${command} ${args.join(' ')} could not run: ${error.message}`)));
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}): ${output}`))));
  });
}
