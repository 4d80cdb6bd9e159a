import { spawnSync, SpawnSyncOptions } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Runs a command to completion; throws with the end of its output when it fails. */
export function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${output}`);
  }
  return String(result.stdout ?? '');
}

/**
 * Installs Debian packages as root (a fresh machine's package lists may be empty: update first).
 * Waits for dpkg's lock: `.ci/run` prepares the compose test while `npm test` may install Chromium.
 */
export function aptInstall(packages: string[]): void {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const waitForLock = ['-o', 'DPkg::Lock::Timeout=600'];
  run('apt-get', [...waitForLock, 'update', '-q'], { env });
  run('apt-get', [...waitForLock, 'install', '-y', '-q', '--no-install-recommends', ...packages], { env });
}

/**
 * The executable a Debian package installs at `path`: as root on Debian it is installed when
 * missing (a new machine has only what the project's own files install); otherwise this throws,
 * naming the package and what needs it.
 */
export function ensureDebianExecutable(path: string, pkg: string, neededFor: string, log: (line: string) => void): string {
  if (existsSync(path)) return path;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`${pkg} is missing: install Debian's \`${pkg}\` package ${neededFor}`);
  }
  const t0 = Date.now();
  aptInstall([pkg]);
  log(`${pkg} installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return path;
}
