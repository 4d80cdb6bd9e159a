import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, SecretSettings, secretFiles } from './compose-project';

/** Before the first release tag, an upgrade starts from the commit the 1.0.0 work started from. */
export const BEFORE_FIRST_RELEASE = 'add7f7bc9c875c5bb1a4caddbb5a75be9798fba0';

const git = (args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();

/** The newest `v*` release tag this checkout descends from, other than one on this very commit. */
export function previousReleaseRef(): string {
  const head = git(['rev-parse', 'HEAD']);
  const tags = git(['tag', '--merged', 'HEAD', '--sort=-v:refname', '--list', 'v*']).split('\n').filter(Boolean);
  return tags.find((tag) => git(['rev-list', '-n', '1', tag]) !== head) ?? BEFORE_FIRST_RELEASE;
}

/**
 * The previous release checked out beside this one (`git worktree`), with the CA certificates
 * this checkout's image builds trust; returns its directory.
 */
export function checkOutPreviousRelease(ref: string): string {
  const dir = join(REPO_ROOT, '.data', 'compose', 'previous-release');
  if (existsSync(dir)) git(['worktree', 'remove', '--force', dir]);
  git(['worktree', 'prune']);
  git(['worktree', 'add', '--detach', dir, ref]);
  const ca = join(REPO_ROOT, 'tools', 'docker', 'extra-ca');
  for (const file of readdirSync(ca).filter((f) => f.endsWith('.crt'))) copyFileSync(join(ca, file), join(dir, 'tools', 'docker', 'extra-ca', file));
  return dir;
}

export function removePreviousRelease(dir: string): void {
  git(['worktree', 'remove', '--force', dir]);
}

/** Builds before 1.0.0 read the four secrets from .env, by their settings' names. */
const secretsInEnv: SecretSettings = (secrets) => ({
  ADMIN_TOKEN: secrets.admin_token,
  JWT_SECRET: secrets.jwt_secret,
  WEBHOOK_SECRET_KEY: secrets.webhook_secret_key,
  POSTGRES_PASSWORD: secrets.postgres_password,
});

/** How a checkout's compose file takes its secrets: files from 1.0.0 on (a `secrets:` section), .env before. */
export function secretSettingsOf(checkout: string): SecretSettings {
  return /^secrets:/m.test(readFileSync(join(checkout, 'docker-compose.yml'), 'utf8')) ? secretFiles : secretsInEnv;
}
