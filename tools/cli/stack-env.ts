import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';

/**
 * Settings for an operator command: the environment first, then what the local stack keeps
 * (`.data/stack/secrets.json`, its embedded PostgreSQL), so commands work beside `npm start`.
 */
export function stackEnv(): Record<string, string> {
  const secretsFile = join(REPO_ROOT, '.data', 'stack', 'secrets.json');
  const kept = existsSync(secretsFile) ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>) : {};
  const pgPort = process.env.EMBEDDED_POSTGRES_PORT ?? '54329';
  return {
    ...kept,
    DATABASE_URL: `postgres://tailsync:tailsync-local@127.0.0.1:${pgPort}/tailsync`,
    BASE_URL: `http://localhost:${process.env.PORT ?? '3000'}`,
    ...(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>),
  };
}
