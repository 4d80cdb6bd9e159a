import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PhaseTimes } from './phase-times';
import { runCheck, StaticChecks, staticChecksReport, STATIC_CHECKS_NICENESS } from './static-checks';

// A check's own niceness: field 19 of /proc/self/stat.
const NICENESS = "require('node:fs').readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16]";
const ownNiceness = () => Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16]);

describe('a static check run beside the suites', () => {
  it('keeps a failed check output, in order, for the end of the run, and says it failed', async () => {
    const script = "console.log('src/a.ts(1,7): error TS2322'); console.error('Found 1 error.'); process.exit(2)";
    const outcome = await runCheck('typecheck', ['-e', script], process.cwd(), STATIC_CHECKS_NICENESS);
    expect(outcome).toMatchObject({ name: 'typecheck', passed: false, output: 'src/a.ts(1,7): error TS2322\nFound 1 error.\n' });
    const phases = new PhaseTimes();
    const report = staticChecksReport([outcome], phases);
    expect(report[0]).toMatch(/^typecheck FAILED in [\d.]+ s, [\d.]+ CPU-seconds \(beside the suites from nice 10\); its output:$/);
    expect(report[1]).toBe('src/a.ts(1,7): error TS2322\nFound 1 error.');
  }, 60_000);

  it('runs below the lanes priority and reports a passed check in one line', async () => {
    const outcome = await runCheck('lint', ['-e', `console.log(${NICENESS})`], process.cwd(), STATIC_CHECKS_NICENESS);
    expect(outcome.passed).toBe(true);
    expect(Number(outcome.output.trim())).toBe(Math.min(ownNiceness() + STATIC_CHECKS_NICENESS, 19));
    expect(staticChecksReport([outcome], new PhaseTimes())).toHaveLength(1);
  }, 60_000);

  it('once raised (the suites done), finishes the running check and runs the next at normal priority', async () => {
    if (process.getuid?.() !== 0 || ownNiceness() !== 0) throw new Error('run as root at niceness 0: lowering a niceness needs root');
    // The first check says its niceness when it starts (into a file the test waits for) and again
    // once the test has raised the checks (a second file).
    const dir = mkdtempSync(join(tmpdir(), 'static-checks-'));
    const [started, raised] = [join(dir, 'started'), join(dir, 'raised')];
    const fs = "require('node:fs')";
    const first = `${fs}.writeFileSync(${JSON.stringify(started)}, ${NICENESS}); const t = setInterval(() => { if (${fs}.existsSync(${JSON.stringify(raised)})) { clearInterval(t); console.log(${NICENESS}); } }, 50)`;
    const checks = new StaticChecks(process.cwd(), new PhaseTimes(), [['typecheck', ['-e', first]], ['lint', ['-e', `console.log(${NICENESS})`]]]);
    while (!existsSync(started)) await new Promise((resolve) => setTimeout(resolve, 50));
    checks.raise();
    writeFileSync(raised, '');
    const [typecheck, lint] = await checks.outcomes;
    expect(Number(readFileSync(started, 'utf8'))).toBe(STATIC_CHECKS_NICENESS);
    expect(Number(typecheck.output.trim())).toBe(0);
    expect(Number(lint.output.trim())).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('once stopped (the run ended early), ends the running check and starts no other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'static-checks-'));
    const started = join(dir, 'started');
    const checks = new StaticChecks(process.cwd(), new PhaseTimes(), [
      ['typecheck', ['-e', `require('node:fs').writeFileSync(${JSON.stringify(started)}, String(process.pid)); setInterval(() => {}, 1000)`]],
      ['lint', ['-e', 'console.log("ran")']],
    ]);
    while (!existsSync(started)) await new Promise((resolve) => setTimeout(resolve, 50));
    checks.stop();
    const outcomes = await checks.outcomes;
    expect(outcomes.map(({ name, passed }) => [name, passed])).toEqual([['typecheck', false]]);
    expect(existsSync(`/proc/${readFileSync(started, 'utf8')}/cmdline`) && readFileSync(`/proc/${readFileSync(started, 'utf8')}/cmdline`, 'utf8').includes('setInterval')).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
