/**
 * Settings only the dispatcher may hold: the keys that unseal every tenant's shared secret and
 * every domain's signing key (contract, "Running on more than one host"). The local stack and
 * the tests keep one environment for all apps, so the others are started without them.
 */
const DISPATCHER_ONLY = ['WEBHOOK_SECRET_KEY', 'WEBHOOK_SECRET_KEY_FILE'];

/** `env` as `app` may see it: without the dispatcher's sealing keys unless it is the dispatcher. */
export function withoutDispatcherOnlySettings(app: string, env: Record<string, string | undefined>): Record<string, string | undefined> {
  if (app === 'webhook-dispatcher') return env;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !DISPATCHER_ONLY.includes(name)));
}
