import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsumerTypeCheck } from './testing/consumer-type-check';

/**
 * The npm package as an integrator gets it: `npm pack` (which builds it), installed from the
 * tarball into an empty project with no registry, then used from CommonJS and ES modules, run
 * behind a real Express receiver, type-checked under every module resolution TypeScript offers,
 * and checked as npm and arethetypeswrong would check it before a release.
 */
const LIB = join(__dirname, '..');
const REPO = join(LIB, '..', '..');
const ATTW = join(REPO, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

describe('the packed @tailsync/webhooks in an empty project', () => {
  const work = mkdtempSync(join(tmpdir(), 'tailsync-webhooks-pack-'));
  const project = join(work, 'consumer');
  const typeCheck = new ConsumerTypeCheck(project, join(project, 'node_modules', '@tailsync', 'webhooks'));
  let packed: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  beforeAll(() => {
    // prepack builds first; what follows its output is npm's JSON report
    const report = run('npm', ['pack', '--json', '--pack-destination', work], LIB);
    [packed] = JSON.parse(report.slice(report.search(/^\[/m)));
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, packed.filename)], project);
  }, 240_000);

  it('holds the builds, their types, the vectors and the licence, and nothing else', () => {
    const paths = packed.files.map((f) => f.path);
    console.log(`${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${paths.length} files`);
    expect(paths).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.mjs', 'dist/index.d.ts', 'dist/index.d.mts', 'dist/nest.js', 'vectors/events.json']));
    expect(paths.filter((p) => !/^(LICENSE|README\.md|package\.json|dist\/.+\.(js|mjs|d\.ts|d\.mts)|vectors\/([\w-]+\.json|README\.md))$/.test(p))).toEqual([]);
    expect(paths.some((p) => /secret-box|signing-key/i.test(p))).toBe(false); // the service's own signing stays out
  });

  it('installs with no dependency of its own', () => {
    const installed = readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installed).toEqual(['@tailsync']);
  });

  it('reaches every shared vector’s verdict from require() and from import()', () => {
    cpSync(join(__dirname, 'testing', 'consumer', 'check-vectors.cjs'), join(project, 'check-vectors.cjs'));
    const out = JSON.parse(run(process.execPath, ['check-vectors.cjs'], project));
    for (const format of [out.cjs, out.esm]) {
      expect(format.failures).toEqual([]);
      expect(format.passed).toBeGreaterThanOrEqual(26);
    }
    expect([out.express, out.fastify]).toEqual(['function', 'function']);
  });

  it('verifies an Ed25519 callback under require(): Express helper, RemoteKeySet on a real JWK Set endpoint', () => {
    linkFrameworks();
    cpSync(join(__dirname, 'testing', 'consumer', 'remote-keys-express.cjs'), join(project, 'remote-keys-express.cjs'));
    const out = JSON.parse(run(process.execPath, ['remote-keys-express.cjs'], project));
    expect(out.verified).toEqual({ status: 204, body: '' });
    expect(out.received).toEqual([{ eventId: 'e-1', eventName: 'Product.RiskAssessmentExecuted', domain: 'acme', data: { score: 42 } }]);
    expect(out.tampered.status).toBe(401);
    expect(JSON.parse(out.tampered.body)).toMatchObject({ step: 6, code: 'payload-mismatch' });
    expect(out.jwksFetches).toBe(1);
  });

  // node10 is what `module: commonjs` implies: the subpath entries need typesVersions there.
  it.each([
    ['node10', { module: 'commonjs', moduleResolution: 'node10' }, ['consumer.ts']],
    ['node16', { module: 'node16', moduleResolution: 'node16' }, ['consumer.cts', 'consumer.mts']],
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, ['consumer.cts', 'consumer.mts']],
    ['bundler', { module: 'preserve', moduleResolution: 'bundler' }, ['consumer.ts']],
  ])('type-checks a consumer under %s resolution', (_name, options, files) => {
    linkFrameworks();
    for (const file of ['consumer.cts', 'consumer.mts']) cpSync(join(__dirname, 'testing', 'consumer', file), join(project, file));
    cpSync(join(__dirname, 'testing', 'consumer', 'consumer.cts'), join(project, 'consumer.ts'));
    expect(typeCheck.report({ ...options, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], experimentalDecorators: true }, files)).toBe('');
  });

  it('is clean under arethetypeswrong (every entry, every resolution)', () => {
    // its text report: the JSON one is cut at 64 KiB when attw exits into a pipe
    const attw = spawnSync(process.execPath, [ATTW, join(work, packed.filename)], { cwd: work, encoding: 'utf8' });
    expect({ status: attw.status, report: attw.stdout + attw.stderr }).toEqual({ status: 0, report: expect.stringContaining('No problems found') });
  });

  it('passes npm publish --dry-run as the release workflow publishes it', () => {
    const dryRun = spawnSync('npm', ['publish', '--dry-run', '--json', join(work, packed.filename)], { cwd: work, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
    expect(dryRun.status).toBe(0);
    const published = JSON.parse(dryRun.stdout.slice(dryRun.stdout.search(/^\{/m))) as Record<string, { name: string; version: string }>;
    expect(Object.values(published)[0] ?? published).toMatchObject({ name: '@tailsync/webhooks', version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
  });

  it('names its repository, home page and issue tracker (npm provenance needs the repository)', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', '@tailsync', 'webhooks', 'package.json'), 'utf8'));
    expect(manifest.repository).toEqual({ type: 'git', url: 'git+https://github.com/tailsync/tailsync.git', directory: 'libs/webhook-signing' });
    expect(manifest.homepage).toMatch(/^https:\/\/github\.com\/tailsync\/tailsync\//);
    expect(manifest.bugs).toEqual({ url: 'https://github.com/tailsync/tailsync/issues' });
  });

  /** The frameworks a consumer of the helpers has installed: the repository's own copies. */
  function linkFrameworks(): void {
    for (const dep of ['@types/express', '@types/express-serve-static-core', '@types/node', 'express', 'fastify', '@nestjs/common']) {
      const link = join(project, 'node_modules', dep);
      if (existsSync(link)) continue;
      mkdirSync(join(link, '..'), { recursive: true });
      symlinkSync(join(REPO, 'node_modules', dep), link);
    }
  }
});
