import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { stackEnv } from './stack-env';

/** The services, in the order their migrations run; each owns its tables and its migrations directory. */
export const MIGRATED_SERVICES = ['tail-sync', 'webhook-dispatcher', 'gateway'] as const;

/** Runs each service's own migration entry point (`apps/<service>/src/migrate.ts`; the CLI does not import app code). */
export async function migrateServicesCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log(
      `usage: npm run migrate [-- <service>...]   (services: ${MIGRATED_SERVICES.join(', ')}; default all)\n` +
        'DATABASE_URL, and EVENT_STORE for tail-sync, as for the services; defaults to the local stack',
    );
    return 0;
  }
  const unknown = argv.filter((name) => !(MIGRATED_SERVICES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown service: ${unknown.join(', ')} (services: ${MIGRATED_SERVICES.join(', ')})\n`);
    return 2;
  }
  for (const service of argv.length > 0 ? argv : MIGRATED_SERVICES) {
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'tools', 'run.js'), join(REPO_ROOT, 'apps', service, 'src', 'migrate.ts')], {
      stdio: 'inherit',
      env: stackEnv(),
    });
    if (result.status !== 0) return result.status ?? 1;
  }
  return 0;
}
