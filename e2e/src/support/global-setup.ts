import { recordSharedPids, startStack } from './test-stack';

/** One started stack per run, shared by every e2e file. */
export default async function globalSetup(): Promise<void> {
  const apps = await startStack();
  (globalThis as { __E2E_APPS__?: unknown }).__E2E_APPS__ = apps;
  recordSharedPids(Object.fromEntries(apps.map((a) => [a.instance, a.child.pid as number])));
}
