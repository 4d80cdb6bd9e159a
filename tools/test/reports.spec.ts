import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closingLine, failedTests, sumReports } from './reports';

// A real Jest run over three small specs, reported as tools/test/jest.js reports a project.
describe('the closing report of a test run', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tailsync-reports-'));
    mkdirSync(join(dir, 'reports'));
    writeFileSync(join(dir, 'jest.config.js'), "module.exports = { testMatch: ['**/*.spec.js'] };\n");
    writeFileSync(join(dir, 'passes.spec.js'), "it('adds', () => expect(1 + 1).toBe(2));\n");
    writeFileSync(join(dir, 'fails.spec.js'), "describe('tails', () => { it('keeps the tail number', () => expect('N1').toBe('N2')); });\n");
    writeFileSync(join(dir, 'broken.spec.js'), "throw new Error('cannot load the fixture');\n");
    spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--json', '--outputFile', join(dir, 'reports', 'project.json')], {
      cwd: dir,
      stdio: 'ignore',
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names each failed test with the first line of its error, and a suite that could not run', () => {
    expect(failedTests(join(dir, 'reports'), dir).sort()).toEqual([
      'broken.spec.js › (suite): cannot load the fixture',
      'fails.spec.js › tails keeps the tail number: Error: expect(received).toBe(expected) // Object.is equality',
    ]);
  });

  it('counts them in the closing line', () => {
    expect(closingLine(sumReports(join(dir, 'reports')), 1)).toEqual({ line: '1 passed, 2 failed', ok: false });
  });
});
