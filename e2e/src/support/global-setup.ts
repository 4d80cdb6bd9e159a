import { preparationsReady } from '@tailsync/tools/testing';
import { recordSharedPids, startStack } from './test-stack';

/**
 * One started stack per run, shared by every e2e file. It boots while `npm test` still installs
 * the Python venvs some files run; the files start once those are ready.
 */
export default async function globalSetup(): Promise<void> {
  const apps = await startStack();
  (globalThis as { __E2E_APPS__?: unknown }).__E2E_APPS__ = apps;
  recordSharedPids(Object.fromEntries(apps.map((a) => [a.instance, a.child.pid as number])));
  try {
    await preparationsReady('the e2e set-up');
  } catch (error) {
    // Jest runs no teardown after a failed set-up.
    await Promise.all(apps.map((a) => a.stop(10_000)));
    throw error;
  }
}
