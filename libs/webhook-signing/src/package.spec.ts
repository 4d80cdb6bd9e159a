import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The npm package as an integrator gets it: `npm pack` (which builds it), installed from the
 * tarball into an empty project with no registry, then used from CommonJS and ES modules and
 * type-checked in both.
 */
const LIB = join(__dirname, '..');
const REPO = join(LIB, '..', '..');
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

describe('the packed @tailsync/webhooks in an empty project', () => {
  const work = mkdtempSync(join(tmpdir(), 'tailsync-webhooks-pack-'));
  const project = join(work, 'consumer');
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
    expect(paths.some((p) => /secret-box|sign/i.test(p))).toBe(false);
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

  it('type-checks a consumer as CommonJS and as an ES module (node16 resolution)', () => {
    // the frameworks a consumer of the helpers has installed: the repository's own copies
    for (const dep of ['@types/express', '@types/express-serve-static-core', '@types/node', 'fastify', '@nestjs/common']) {
      mkdirSync(join(project, 'node_modules', dep, '..'), { recursive: true });
      symlinkSync(join(REPO, 'node_modules', dep), join(project, 'node_modules', dep));
    }
    for (const file of ['consumer.cts', 'consumer.mts']) cpSync(join(__dirname, 'testing', 'consumer', file), join(project, file));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], experimentalDecorators: true },
      files: ['consumer.cts', 'consumer.mts'],
    }));
    expect(() => run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', '.'], project)).not.toThrow();
  });
});
