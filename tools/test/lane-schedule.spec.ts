import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstTestWaits, laneSchedule, waitLines } from './lane-schedule';
import { closingLine, sumReports } from './reports';
import { recordWait } from './test-waits';

// Real Jest runs, reported into lane folders as `npm test` has tools/test/jest.js report them.
describe('the closing lines of a run in lanes', () => {
  let dir: string;
  let startedAt: number;
  const jest = (outputFile: string) =>
    spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--json', '--outputFile', join(dir, 'reports', outputFile)], { cwd: dir, stdio: 'ignore' });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tailsync-lanes-'));
    mkdirSync(join(dir, 'reports', 'e2e'), { recursive: true });
    mkdirSync(join(dir, 'reports', 'projects'), { recursive: true });
    writeFileSync(join(dir, 'jest.config.js'), "module.exports = { testMatch: ['**/*.spec.js'] };\n");
    writeFileSync(join(dir, 'passes.spec.js'), "it('adds', () => expect(1 + 1).toBe(2));\n");
    mkdirSync(join(dir, 'data', 'e2e'), { recursive: true });
    mkdirSync(join(dir, 'data', 'projects'), { recursive: true });
    startedAt = Date.now();
    recordWait(join(dir, 'data', 'e2e'), { who: 'e2e/src/auth.e2e.ts', what: 'the Python venv api-clients', startedAt, seconds: 2.5 });
    jest(join('projects', 'apps__gateway.json'));
    jest(join('projects', 'libs__contracts.json'));
    jest(join('e2e', 'e2e.json'));
    // A tool waited for inside a test file: not before the lane's first test.
    recordWait(join(dir, 'data', 'projects'), { who: 'tests', what: 'helm', startedAt: Date.now(), seconds: 4 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("counts every lane's reports in the closing line", () => {
    expect(closingLine(sumReports(join(dir, 'reports')), 0)).toEqual({ line: '3 passed, 0 failed', ok: true });
  });

  it("shows each lane's projects in the order they ran, with when each started and ended", () => {
    const [e2e, projects, missing] = laneSchedule(join(dir, 'reports'), ['e2e', 'projects', 'other'], startedAt);
    expect(e2e).toMatch(/^lane e2e: e2e \d+\.\d–\d+\.\d s$/);
    expect(projects).toMatch(/^lane projects: apps\/gateway \d+\.\d–\d+\.\d s, libs\/contracts \d+\.\d–\d+\.\d s$/);
    expect(missing).toBe('lane other: no report');
    const times = [...projects.matchAll(/(\d+\.\d)–(\d+\.\d)/g)].flatMap((m) => [Number(m[1]), Number(m[2])]);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('says per lane how long its first test file came after the lane started, and what it waited for before it', () => {
    const lanes = ['e2e', 'projects', 'other'].map((name) => ({ name, dataDir: join(dir, 'data', name), startedAt }));
    const [e2e, projects, other] = firstTestWaits(join(dir, 'reports'), lanes);
    expect(e2e).toMatch(/^lane e2e: its first test file began \d+\.\d s after the lane started; before it, it waited 2\.5 s for the Python venv api-clients \(e2e\/src\/auth\.e2e\.ts\)$/);
    expect(projects).toMatch(/^lane projects: its first test file began \d+\.\d s after the lane started; before it, it waited for nothing$/);
    expect(other).toBe('lane other: no test file ran');
    expect(waitLines(lanes)).toEqual(['e2e/src/auth.e2e.ts waited 2.5 s for the Python venv api-clients (lane e2e)', 'tests waited 4.0 s for helm (lane projects)']);
  });
});
