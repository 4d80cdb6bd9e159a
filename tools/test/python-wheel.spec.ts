import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The PyPI package `tailsync-webhooks` as an integrator gets it: built with `python -m build` from a
 * copy of sdks/python (a wheel and an sdist), installed from the wheel alone, and its tests run
 * against that installed copy, offline, on the shared vectors and the recorded callbacks. The sdist
 * is unpacked alone and its own tests run from it, as a distribution packager would.
 */
const REPO = join(__dirname, '..', '..');
const python = () => {
  const bin = process.env.TAILSYNC_TEST_PYTHON;
  if (!bin) throw new Error('TAILSYNC_TEST_PYTHON is not set: run the suite with `npm test`, which installs the Python receivers');
  return bin;
};
const run = (args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  execFileSync(python(), args, { ...options, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...options.env } });

describe('the Python package tailsync-webhooks, built and installed from its wheel', () => {
  const work = mkdtempSync(join(tmpdir(), 'tailsync-webhooks-py-'));
  const site = join(work, 'site');
  let wheel: string;
  let sdist: string;
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  beforeAll(() => {
    // tests/vectors stays a link (made absolute by the copy), as in the release's build
    cpSync(join(REPO, 'sdks', 'python'), join(work, 'project'), { recursive: true, filter: (src) => !/(__pycache__|\.egg-info|\/build$)/.test(src) });
    // --no-isolation: the build backend comes from the test venv (pinned), not from the network
    run(['-m', 'build', '--no-isolation', '--outdir', join(work, 'dist'), join(work, 'project')], { cwd: work });
    wheel = readdirSync(join(work, 'dist')).find((f) => f.endsWith('.whl'))!;
    sdist = readdirSync(join(work, 'dist')).find((f) => f.endsWith('.tar.gz'))!;
    run(['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-index', '--no-deps', '--target', site, join(work, 'dist', wheel)], { cwd: work });
  }, 180_000);

  it('builds a typed, Apache-2.0 wheel for Python 3.10 and later, and an sdist', () => {
    expect(wheel).toMatch(/^tailsync_webhooks-\d+\.\d+\.\d+-py3-none-any\.whl$/);
    expect(sdist).toMatch(/^tailsync_webhooks-\d+\.\d+\.\d+\.tar\.gz$/);
    const listing = JSON.parse(run(['-c', [
      'import json, sys, zipfile',
      'z = zipfile.ZipFile(sys.argv[1])',
      'meta = next(n for n in z.namelist() if n.endswith("METADATA"))',
      'print(json.dumps({"files": z.namelist(), "metadata": z.read(meta).decode()}))',
    ].join('\n'), join(work, 'dist', wheel)], { cwd: work }));
    const files = (listing.files as string[]).filter((f) => !f.includes('.dist-info/'));
    console.log(`${wheel}: ${files.length} files: ${files.join(', ')}`);
    expect(files).toEqual(expect.arrayContaining(['tailsync_webhooks/py.typed', 'tailsync_webhooks/verify.py', 'tailsync_webhooks/flask.py', 'tailsync_webhooks/fastapi.py']));
    expect(files.every((f) => f.startsWith('tailsync_webhooks/'))).toBe(true);
    expect(listing.metadata).toMatch(/^License-Expression: Apache-2\.0$/m);
    expect(listing.metadata).toMatch(/^Requires-Python: >=3\.10$/m);
    expect(listing.metadata).toMatch(/^Provides-Extra: flask$/m);
    expect(listing.metadata).toMatch(/^Provides-Extra: fastapi$/m);
    expect(listing.metadata).not.toMatch(/^Requires-Dist: (?!.*extra ==)/m); // no dependency outside the extras
    expect(listing.metadata).toMatch(/^Project-URL: Source, https:\/\/github\.com\/tailsync\/tailsync$/m);
    expect(listing.metadata).toMatch(/^Project-URL: Issues, /m);
  });

  it('passes twine check, as PyPI will read the wheel and the sdist', () => {
    const out = run(['-m', 'twine', 'check', '--strict', join(work, 'dist', wheel), join(work, 'dist', sdist)], { cwd: work });
    expect(out.match(/PASSED/g)).toHaveLength(2);
  });

  it('ships an sdist whose own tests run from it, offline: helpers and vectors included', () => {
    const unpacked = join(work, 'from-sdist');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', join(work, 'dist', sdist), '-C', unpacked]);
    const root = join(unpacked, sdist.replace(/\.tar\.gz$/, ''));
    const files = readdirSync(join(root, 'tests'));
    expect(files).toEqual(expect.arrayContaining(['conftest.py', 'clock.py', 'test_vectors.py', 'vectors']));
    expect(readdirSync(join(root, 'tests', 'vectors'))).toEqual(expect.arrayContaining(['events.json', 'ed25519.json', 'recorded.json']));
    // installed from the unpacked sdist itself (not the wheel above), then its tests run in place
    const sdistSite = join(work, 'sdist-site');
    run(['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-index', '--no-deps', '--no-build-isolation', '--target', sdistSite, root], { cwd: work });
    const tests = spawnSync(python(), ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--color=no'], {
      cwd: root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, PYTHONPATH: sdistSite, PYTHONDONTWRITEBYTECODE: '1', TAILSYNC_VECTORS_DIR: undefined },
    });
    if (tests.status !== 0) throw new Error(`pytest from the sdist failed:\n${tests.stdout}\n${tests.stderr}`);
    const summary = tests.stdout.trim().split('\n').pop() ?? '';
    expect(summary).toMatch(/^\d+ passed in /);
    expect(Number(summary.split(' ')[0])).toBeGreaterThanOrEqual(45);
  });

  it('passes its tests against the installed wheel, offline', () => {
    const env = { PYTHONPATH: site };
    expect(run(['-c', 'import tailsync_webhooks; print(tailsync_webhooks.__file__)'], { cwd: work, env }).trim()).toBe(join(site, 'tailsync_webhooks', '__init__.py'));
    const tests = spawnSync(python(), ['-m', 'pytest', join(REPO, 'sdks', 'python', 'tests'), '-q', '-p', 'no:cacheprovider', '--color=no'], {
      cwd: work, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    if (tests.status !== 0) throw new Error(`pytest failed:\n${tests.stdout}\n${tests.stderr}`);
    const summary = tests.stdout.trim().split('\n').pop() ?? '';
    expect(summary).toMatch(/^\d+ passed in /); // nothing skipped, nothing failed
    expect(Number(summary.split(' ')[0])).toBeGreaterThanOrEqual(45);
  });
});
