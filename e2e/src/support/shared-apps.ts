import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// A relative path: Jest's globalSetup does not apply moduleNameMapper, so the alias would not resolve here.
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { AppName } from '../../../tools/stack';

/**
 * Which process serves each app of the shared stack, kept in a file: Jest gives every test file
 * its own copy of `process.env`, so a replacement one file started (after a crash test) would
 * still be unknown to the next file, which then stopped a dead pid and clashed on the ports.
 */
const registryFile = () => join(process.env.TAILSYNC_TEST_DATA ?? '/tmp', 'e2e-shared-apps.json');

function registry(): Partial<Record<AppName, number>> {
  return existsSync(registryFile()) ? (JSON.parse(readFileSync(registryFile(), 'utf8')) as Partial<Record<AppName, number>>) : {};
}

/** The pid of the process serving `name` in the shared stack now. */
export function sharedAppPid(name: AppName): number {
  const pid = registry()[name];
  if (pid === undefined) throw new Error(`no shared ${name} is recorded (the e2e global set-up records them)`);
  return pid;
}

/** Records the processes that serve these apps of the shared stack from now on. */
export function recordSharedApps(apps: readonly { name: AppName; child: { pid?: number } }[]): void {
  const pids = registry();
  for (const app of apps) pids[app.name] = app.child.pid as number;
  writeFileSync(registryFile(), JSON.stringify(pids));
}
