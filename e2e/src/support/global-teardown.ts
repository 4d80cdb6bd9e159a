import type { AppProcess } from '@tailsync/stack';

export default async function globalTeardown(): Promise<void> {
  const apps = ((globalThis as { __E2E_APPS__?: AppProcess[] }).__E2E_APPS__ ?? []);
  await Promise.all(apps.map((a) => a.stop(10_000)));
}
