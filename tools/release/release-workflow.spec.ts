import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { packageVersion } from './changelog';

const ROOT = join(__dirname, '..', '..');

interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: { uses?: string; run?: string; with?: Record<string, unknown>; 'working-directory'?: string }[];
}

/**
 * A `v*` tag publishes the receiver packages (docs/releases.md): both at the tag's version, signed
 * in with the job's OIDC token. actionlint (`npm run lint:workflows`) checks the workflow's syntax;
 * this checks what it promises.
 */
describe('the release workflow publishes the receiver packages', () => {
  const jobs = (parse(readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as { jobs: Record<string, Job> }).jobs;

  it('carries the version of the release in both packages (the notes job refuses any other tag)', () => {
    const npm = (JSON.parse(readFileSync(join(ROOT, 'libs', 'webhook-signing', 'package.json'), 'utf8')) as { version: string }).version;
    const pypi = /^version = "([^"]+)"$/m.exec(readFileSync(join(ROOT, 'sdks', 'python', 'pyproject.toml'), 'utf8'))?.[1];
    expect({ npm, pypi }).toEqual({ npm: packageVersion(), pypi: packageVersion() });
  });

  it('publishes @tailsync/webhooks with npm provenance, after the version check', () => {
    const job = jobs['npm-package'];
    expect(job.needs).toBe('notes');
    expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const publish = job.steps.find((s) => s.run?.startsWith('npm publish'));
    expect(publish).toMatchObject({ 'working-directory': 'libs/webhook-signing', run: expect.stringContaining('--provenance') });
  });

  it('publishes tailsync-webhooks by PyPI trusted publishing, after twine check', () => {
    const job = jobs['pypi-package'];
    expect(job.needs).toBe('notes');
    expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const steps = job.steps.map((s) => s.uses ?? s.run ?? '');
    const check = steps.findIndex((s) => s.includes('twine check --strict'));
    const publish = steps.findIndex((s) => s.startsWith('pypa/gh-action-pypi-publish@'));
    expect(check).toBeGreaterThan(-1);
    expect(publish).toBeGreaterThan(check);
  });

  it('makes the GitHub release only once both packages are out', () => {
    expect(jobs.release.needs).toEqual(expect.arrayContaining(['npm-package', 'pypi-package']));
  });
});
