import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { stackEnv } from './stack-env';

/** Runs an app's own command entry point (`apps/<app>/src/cli/<name>.ts`) with the stack's settings; the CLI does not import app code. */
export function runAppScript(app: 'tail-sync' | 'webhook-dispatcher', name: string): number {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'tools', 'run.js'), join(REPO_ROOT, 'apps', app, 'src', 'cli', `${name}.ts`)], {
    stdio: 'inherit',
    env: stackEnv(),
  });
  return result.status ?? 1;
}
