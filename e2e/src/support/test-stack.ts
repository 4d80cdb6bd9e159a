import { join } from 'node:path';
// A relative path: Jest's globalSetup does not apply moduleNameMapper, so the alias would not resolve here.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { AppName, AppProcess, spawnApp, waitForHttp } from '../../../tools/stack';

/** Ports of the three apps under test (the test infrastructure uses its own, too). */
export const E2E_PORTS = { gateway: 13000, 'tail-sync': 13001, 'webhook-dispatcher': 13002 } as const;

export const baseUrl = () => process.env.E2E_BASE_URL ?? `http://127.0.0.1:${E2E_PORTS.gateway}`;

/** The environment every app under test gets: the test infrastructure plus fast, local settings. */
export function appEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['DATABASE_URL', 'KAFKA_BROKERS', 'ADMIN_TOKEN', 'JWT_SECRET', 'WEBHOOK_SECRET_KEY']) {
    const value = process.env[key];
    if (!value) throw new Error(`${key} is not set: run the suite with \`npm test\``);
    env[key] = value;
  }
  return {
    ...env,
    PORT: String(E2E_PORTS.gateway),
    TAIL_SYNC_HTTP_PORT: String(E2E_PORTS['tail-sync']),
    WEBHOOK_DISPATCHER_HTTP_PORT: String(E2E_PORTS['webhook-dispatcher']),
    PUBLIC_BASE_URL: `http://127.0.0.1:${E2E_PORTS.gateway}`,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '200,400',
    RPC_TIMEOUT_MS: '8000',
    LOG_LEVEL: 'info',
    ...overrides,
  };
}

export const logDir = () => join(process.env.TAILSYNC_TEST_DATA ?? '/tmp', 'logs');

export function startApp(name: AppName, instance: string = name, overrides: Record<string, string> = {}): AppProcess {
  return spawnApp(name, appEnv(overrides), logDir(), instance);
}

/** The whole stack under test, ready when the gateway's readiness probe (which crosses Kafka) answers 200. */
export async function startStack(): Promise<AppProcess[]> {
  const apps = (['tail-sync', 'webhook-dispatcher', 'gateway'] as const).map((name) => startApp(name));
  await waitForHttp(`${baseUrl()}/health/ready`, 120_000, apps);
  return apps;
}
