import { recordSharedPids, startStack } from './test-stack';

/**
 * One started stack per run, shared by every e2e file. It boots while `npm test` still installs
 * the Python venvs some files run; each of those files waits for its own (venv-waits.ts).
 */
export default async function globalSetup(): Promise<void> {
  const apps = await startStack();
  (globalThis as { __E2E_APPS__?: unknown }).__E2E_APPS__ = apps;
  recordSharedPids(Object.fromEntries(apps.map((a) => [a.instance, a.child.pid as number])));
}
