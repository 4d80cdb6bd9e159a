import { recordSharedApps } from './shared-apps';
import { startStack } from './test-stack';

/** One started stack per run, shared by every e2e file. */
export default async function globalSetup(): Promise<void> {
  const apps = await startStack();
  (globalThis as { __E2E_APPS__?: unknown }).__E2E_APPS__ = apps;
  recordSharedApps(apps);
}
