import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { PREPARATIONS_VARIABLE } from './test-preparations';
import { readWaits } from './test-waits';
import { TEST_VENVS } from './test-venvs';

// The fixture reads schemathesis's variable; named indirectly so that this spec itself reads no venv
// (test-venvs.spec.ts maps every file that does to its project's waits).
const SCHEMATHESIS = TEST_VENVS.find((venv) => venv.name === 'schemathesis')!.variable;

/** A real Jest run of two files with the e2e project's per-file venv wait (e2e/src/support/venv-waits.ts). */
describe("an e2e file's wait for its own Python venv", () => {
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-venv-waits-'));
    mkdirSync(join(dir, 'preparations'));
    mkdirSync(join(dir, 'data'));
    const preset = (await import(join(REPO_ROOT, 'jest.preset.js'))) as { transform: Record<string, [string, object]> };
    // Outside the repository, Jest finds the preset's transformer only by its full path.
    const transform = Object.fromEntries(Object.entries(preset.transform).map(([files, [module, options]]) => [files, [require.resolve(module), options]]));
    const config = { ...preset, transform, rootDir: dir, testMatch: ['<rootDir>/*.e2e.ts'], setupFilesAfterEnv: [join(REPO_ROOT, 'e2e', 'src', 'support', 'venv-waits.ts')] };
    writeFileSync(join(dir, 'jest.config.js'), `module.exports = ${JSON.stringify(config)};\n`);
    writeFileSync(join(dir, 'openapi.e2e.ts'), `it('runs schemathesis', () => expect(process.env.${SCHEMATHESIS}).toBe('/bin/true'));\n`);
    writeFileSync(join(dir, 'plain.e2e.ts'), "it('runs no Python', () => expect(1 + 1).toBe(2));\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs Jest on the two files; `install` settles schemathesis's install while it runs. */
  const jest = (install: () => void) =>
    new Promise<{ status: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [require.resolve('jest/bin/jest'), '--runInBand', '--config', join(dir, 'jest.config.js')], {
        cwd: dir,
        env: { ...process.env, [PREPARATIONS_VARIABLE]: join(dir, 'preparations'), TAILSYNC_TEST_DATA: join(dir, 'data'), [SCHEMATHESIS]: '/bin/true' },
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => {
        output += chunk;
        // Once the file says it waits, the install ends.
        if (output.includes('waits for the Python venv schemathesis')) install();
      });
      child.once('close', (status) => resolve({ status, output }));
    });

  it('waits for that venv alone, saying so in one line, and records the wait as the file', async () => {
    const { status, output } = await jest(() => writeFileSync(join(dir, 'preparations', 'schemathesis.json'), JSON.stringify({ ok: true })));
    expect(output).toContain('[tests] openapi.e2e.ts waits for the Python venv schemathesis (npm test is installing');
    expect(output).toMatch(/\[tests\] the Python venv schemathesis ready for openapi\.e2e\.ts after \d+\.\d s of waiting/);
    expect(output).not.toMatch(/plain\.e2e\.ts waits/);
    expect(status).toBe(0);
    expect(readWaits(join(dir, 'data'))).toEqual([{ who: 'openapi.e2e.ts', what: 'the Python venv schemathesis', startedAt: expect.any(Number), seconds: expect.any(Number) }]);
  }, 120_000);

  it('fails only the file that needs a venv that did not install, with its output', async () => {
    const failed = { ok: false, error: 'the Python venv schemathesis (e2e/schemathesis/requirements.txt) did not install; its last lines:\nERROR: No matching distribution found for schemathesis==99' };
    const { status, output } = await jest(() => writeFileSync(join(dir, 'preparations', 'schemathesis.json'), JSON.stringify(failed)));
    expect(status).toBe(1);
    expect(output).toMatch(/FAIL .*openapi\.e2e\.ts/);
    expect(output).toMatch(/PASS .*plain\.e2e\.ts/);
    expect(output).toContain('npm test could not install what openapi.e2e.ts needs: the Python venv schemathesis');
    expect(output).toContain('No matching distribution found for schemathesis==99');
  }, 120_000);
});
