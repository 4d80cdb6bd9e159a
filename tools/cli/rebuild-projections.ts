import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { stackEnv } from './stack-env';

/** Runs tail-sync's own rebuild entry point (the CLI does not import app code). */
export async function rebuildProjectionsCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log('usage: npm run cli -- rebuild-projections   (DATABASE_URL, EVENT_STORE as for tail-sync; defaults to the local stack)');
    return 0;
  }
  const result = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'tools', 'run.js'), join(REPO_ROOT, 'apps', 'tail-sync', 'src', 'cli', 'rebuild-projections.ts')],
    { stdio: 'inherit', env: stackEnv() },
  );
  return result.status ?? 1;
}
