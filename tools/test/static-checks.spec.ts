import { readFileSync } from 'node:fs';
import { PhaseTimes } from './phase-times';
import { runCheck, staticChecksReport, STATIC_CHECKS_NICENESS } from './static-checks';

describe('a static check run beside the suites', () => {
  it('keeps a failed check output, in order, for the end of the run, and says it failed', async () => {
    const script = "console.log('src/a.ts(1,7): error TS2322'); console.error('Found 1 error.'); process.exit(2)";
    const outcome = await runCheck('typecheck', ['-e', script], process.cwd());
    expect(outcome).toMatchObject({ name: 'typecheck', passed: false, output: 'src/a.ts(1,7): error TS2322\nFound 1 error.\n' });
    const phases = new PhaseTimes();
    const report = staticChecksReport([outcome], phases);
    expect(report[0]).toMatch(/^typecheck FAILED in [\d.]+ s, [\d.]+ CPU-seconds \(beside the suites, nice 10\); its output:$/);
    expect(report[1]).toBe('src/a.ts(1,7): error TS2322\nFound 1 error.');
  }, 60_000);

  it('runs below the lanes priority and reports a passed check in one line', async () => {
    // The check prints its own niceness (field 19 of /proc/self/stat).
    const script = "console.log(require('node:fs').readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16])";
    const outcome = await runCheck('lint', ['-e', script], process.cwd());
    const own = Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16]);
    expect(outcome.passed).toBe(true);
    expect(Number(outcome.output.trim())).toBe(Math.min(own + STATIC_CHECKS_NICENESS, 19));
    expect(staticChecksReport([outcome], new PhaseTimes())).toHaveLength(1);
  }, 60_000);
});
