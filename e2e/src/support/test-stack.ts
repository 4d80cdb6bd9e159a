import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// A relative path: Jest's globalSetup does not apply moduleNameMapper, so the alias would not resolve here.
import { AppName, AppProcess, grpcEnv, spawnApp, waitForHttp } from '@tailsync/stack';

/** Ports of the three apps under test (the test infrastructure uses its own, too). */
export const E2E_PORTS = { gateway: 13000, 'tail-sync': 13001, 'webhook-dispatcher': 13002 } as const;

/**
 * gRPC ports of the services' copies: the shared copy's, then a second copy's a test may start.
 * The gateway's targets list both, as an operator lists every copy; a copy not running is skipped.
 */
export const E2E_GRPC_PORTS = { 'tail-sync': [13051, 13061], 'webhook-dispatcher': [13052, 13062] } as const;

export const baseUrl = () => process.env.E2E_BASE_URL ?? `http://127.0.0.1:${E2E_PORTS.gateway}`;
/** The shared gateway's operators' port: `/metrics`, the detailed readiness report. */
export const managementUrl = () => `http://127.0.0.1:${E2E_PORTS.gateway + 1000}`;

/** The environment every app under test gets: the test infrastructure plus fast, local settings. */
export function appEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['DATABASE_URL', 'KAFKA_BROKERS', 'ADMIN_TOKEN', 'JWT_SECRET', 'WEBHOOK_SECRET_KEY', 'SERVICE_SIGNING_KEY', 'SERVICE_VERIFY_KEY']) {
    const value = process.env[key];
    if (!value) throw new Error(`${key} is not set: run the suite with \`npm test\``);
    env[key] = value;
  }
  return {
    ...env,
    PORT: String(E2E_PORTS.gateway),
    TAIL_SYNC_HTTP_PORT: String(E2E_PORTS['tail-sync']),
    WEBHOOK_DISPATCHER_HTTP_PORT: String(E2E_PORTS['webhook-dispatcher']),
    ...grpcEnv(E2E_GRPC_PORTS),
    PUBLIC_BASE_URL: `http://127.0.0.1:${E2E_PORTS.gateway}`,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '200,400',
    RPC_TIMEOUT_MS: '8000',
    LOG_LEVEL: 'info',
    // Every test connects from 127.0.0.1, so one address's failure count would be every test's:
    // the limit's own tests start a gateway with the default and connect from their own addresses.
    AUTH_FAILURES_PER_MINUTE: '100000',
    // Each gateway a test starts on PORT gets its operators' port at PORT + 1000.
    MANAGEMENT_PORT: String(Number(overrides.PORT ?? E2E_PORTS.gateway) + 1000),
    ...overrides,
  };
}

export const logDir = () => join(process.env.TAILSYNC_TEST_DATA ?? '/tmp', 'logs');

/** Every app a test starts is recorded, so the global teardown stops it even if the test did not. */
export function startApp(name: AppName, instance: string = name, overrides: Record<string, string> = {}): AppProcess {
  const app = spawnApp(name, appEnv(overrides), logDir(), instance);
  appendFileSync(pidFile(), `${app.child.pid}\n`);
  return app;
}

export const pidFile = () => join(process.env.TAILSYNC_TEST_DATA ?? '/tmp', 'e2e-app-pids');

/** The whole stack under test, ready when the gateway's readiness probe (which calls both services) answers 200. */
export async function startStack(): Promise<AppProcess[]> {
  const apps = (['tail-sync', 'webhook-dispatcher', 'gateway'] as const).map((name) => startApp(name));
  await waitForHttp(`${baseUrl()}/health/ready`, 120_000, apps);
  return apps;
}

export { waitForHttp, type AppProcess };

/**
 * The pids of the shared stack's apps, by name. In a file, not the environment: each test file has
 * its own copy of `process.env`, and a file that replaced an app must tell the files after it.
 */
const sharedPidsFile = () => join(process.env.TAILSYNC_TEST_DATA ?? '/tmp', 'e2e-shared-pids.json');

export function recordSharedPids(pids: Record<string, number>): void {
  writeFileSync(sharedPidsFile(), JSON.stringify(pids));
}

const sharedPids = (): Record<string, number> => JSON.parse(readFileSync(sharedPidsFile(), 'utf8')) as Record<string, number>;

/** SIGKILLs a process of the shared stack (started by the global set-up, or replaced since) by its pid. */
export function killSharedApp(instance: string): void {
  const pids = sharedPids();
  if (!pids[instance]) throw new Error(`no pid for ${instance}`);
  try {
    process.kill(pids[instance], 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** Starts a replacement for a shared app in its place (same ports); it lives until the test run ends. */
export async function replaceSharedApp(name: AppName): Promise<AppProcess> {
  const app = startApp(name, `${name}-replacement-${Date.now()}`);
  recordSharedPids({ ...sharedPids(), [name]: app.child.pid as number });
  await waitForHttp(`http://127.0.0.1:${E2E_PORTS[name]}/health/ready`, 60_000, [app]);
  await waitForHttp(`${baseUrl()}/health/ready`, 60_000, [app]);
  return app;
}

/** Stops a process of the shared stack (started by the global set-up, or replaced since) cleanly: SIGTERM, then waits until it is gone. */
export async function stopSharedApp(instance: string, timeoutMs = 20_000): Promise<void> {
  const pid = sharedPids()[instance];
  if (!pid) throw new Error(`no pid for ${instance}`);
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive()) process.kill(pid, 'SIGKILL');
}

/** Starts replacements for several shared apps at once (the gateway is ready only once the services are). */
export async function replaceSharedApps(names: readonly AppName[]): Promise<void> {
  const apps = names.map((name) => startApp(name, `${name}-replacement-${Date.now()}`));
  recordSharedPids({ ...sharedPids(), ...Object.fromEntries(apps.map((app) => [app.name, app.child.pid as number])) });
  await waitForHttp(`${baseUrl()}/health/ready`, 120_000, apps);
}
