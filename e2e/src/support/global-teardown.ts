import { existsSync, readFileSync } from 'node:fs';
import type { AppProcess } from '@tailsync/stack';
import { pidFile } from './test-stack';

export default async function globalTeardown(): Promise<void> {
  const apps = (globalThis as { __E2E_APPS__?: AppProcess[] }).__E2E_APPS__ ?? [];
  await Promise.all(apps.map((a) => a.stop(10_000)));
  // Copies that tests started (replacements after crash tests, second instances) go too.
  const pids = existsSync(pidFile()) ? readFileSync(pidFile(), 'utf8').split('\n').filter(Boolean).map(Number) : [];
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
}
