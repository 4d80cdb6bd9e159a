import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

interface JestReport {
  testResults?: { name: string; status: string; message: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
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

/** The reports in `dir` and its folders (`npm test` gives each lane one). */
function readReports(dir: string): JestReport[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as JestReport);
}

/** Sums the JSON reports tools/test/jest.js leaves in `dir` (and its folders). */
export function sumReports(dir: string): Totals {
  return totalsOf(readReports(dir));
}

function totalsOf(reports: JestReport[]): Totals {
  const totals = { passed: 0, failed: 0, skipped: 0, brokenSuites: 0 };
  for (const r of reports) {
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    totals.brokenSuites += r.numRuntimeErrorTestSuites;
  }
  return totals;
}

/**
 * Each failed test as `file › full name: first line of its error` (a suite that failed outside its
 * tests, as `file › (suite): …`), printed above the closing line: CI keeps only the end of a long output.
 */
export function failedTests(dir: string, root: string): string[] {
  return failuresOf(readReports(dir), root);
}

function failuresOf(reports: JestReport[], root: string): string[] {
  return reports.flatMap((r) =>
    (r.testResults ?? []).flatMap((suite) => {
      const file = relative(root, suite.name);
      const failed = suite.assertionResults.filter((a) => a.status === 'failed').map((a) => `${file} › ${a.fullName}: ${firstLine(a.failureMessages[0])}`);
      return suite.status === 'failed' && failed.length === 0 ? [`${file} › (suite): ${firstLine(suite.message)}`] : failed;
    }),
  );
}

/** The first line of an error below Jest's `● heading`, without colours, at most 200 characters. */
function firstLine(message = ''): string {
  const line = stripVTControlCharacters(message).split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('●')) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
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

/**
 * What a run prints last: its failed tests (paths relative to `root`), then the closing line;
 * `ok` when the run passed. The reports are read once.
 */
export function closingReport(dir: string, root: string, runnerStatus: number | null, otherFailures = 0): { text: string; ok: boolean } {
  const reports = readReports(dir);
  const { line, ok } = closingLine(totalsOf(reports), runnerStatus, otherFailures);
  return { text: [...failuresOf(reports, root).map((failure) => `failed: ${failure}\n`), `${line}\n`].join(''), ok };
}
