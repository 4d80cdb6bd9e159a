import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { valid } from 'semver';
import { packageVersion, readChangelog, REPO_ROOT } from './changelog';

const MIGRATION_DIRS = ['apps/gateway/migrations', 'apps/tail-sync/migrations', 'apps/webhook-dispatcher/migrations', 'libs/event-store/migrations'];

describe('CHANGELOG.md and the version', () => {
  const changelog = readChangelog();

  it('has a dated section for the version package.json carries, newest first, each a semver', () => {
    expect(valid(packageVersion())).toBe(packageVersion());
    expect(changelog.unreleased).toBeDefined();
    expect(changelog.releases.map((r) => r.version)).toContain(packageVersion());
    for (const { version } of changelog.releases) expect(valid(version)).toBe(version);
    const dates = changelog.releases.map((r) => r.date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('gives every release an "Upgrading" part first: what an operator must do', () => {
    for (const { version, notes } of changelog.releases) expect({ version, first: notes.split('\n').find((l) => l.startsWith('### ')) }).toEqual({ version, first: '### Upgrading' });
  });

  it('names every database migration in the release that adds it (or under Unreleased)', () => {
    const text = [changelog.unreleased ?? '', ...changelog.releases.map((r) => r.notes)].join('\n');
    const files = MIGRATION_DIRS.flatMap((dir) => readdirSync(join(REPO_ROOT, dir)).filter((f) => f.endsWith('.sql')));
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => !text.includes(`\`${file}\``))).toEqual([]);
  });

  it('is the release compose pins and the images are labelled with', () => {
    const compose = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
    const pins = [...compose.matchAll(/\$\{TAILSYNC_VERSION:-([^}]+)\}/g)].map(([, v]) => v);
    expect(pins.length).toBe(7); // the three images, the one-shots on tail-sync's (kafka-init, grpc-certs, postgres-roles) and the build arguments they share
    expect(new Set(pins)).toEqual(new Set([packageVersion()]));
    expect(readFileSync(join(REPO_ROOT, '.env.example'), 'utf8')).toContain(`\nTAILSYNC_VERSION=${packageVersion()}\n`);
  });
});
