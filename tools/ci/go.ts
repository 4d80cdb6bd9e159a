import { spawnSync } from 'node:child_process';

/** The Go toolchain on PATH, or where the official tarball installs it; undefined when absent. */
export function findGo(): string | undefined {
  return ['go', '/usr/local/go/bin/go'].find((candidate) => spawnSync(candidate, ['version'], { stdio: 'ignore' }).status === 0);
}
