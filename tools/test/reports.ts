import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface JestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numRuntimeErrorTestSuites: number;
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  brokenSuites: number;
}

/** Sums the JSON reports tools/test/jest.js leaves in `dir`. */
export function sumReports(dir: string): Totals {
  const totals = { passed: 0, failed: 0, skipped: 0, brokenSuites: 0 };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const r = JSON.parse(readFileSync(join(dir, file), 'utf8')) as JestReport;
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    totals.brokenSuites += r.numRuntimeErrorTestSuites;
  }
  return totals;
}

/**
 * The closing line CI reads. A suite that failed to load counts as a failure, a skipped test is
 * never a pass, and a runner that failed without a report (a broken set-up) is a failure too.
 */
export function closingLine(totals: Totals, runnerStatus: number | null, otherFailures = 0): { line: string; ok: boolean } {
  const failed = (totals.failed + totals.brokenSuites || (runnerStatus === 0 ? 0 : 1)) + otherFailures;
  const ok = runnerStatus === 0 && failed === 0 && totals.skipped === 0 && totals.passed > 0;
  return { line: `${totals.passed} passed, ${failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`, ok };
}
