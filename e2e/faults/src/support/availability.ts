/**
 * How a fault looked from the API's side: per phase (before, during, after the heal) the calls
 * by status and their latencies, how long calls were refused (the span from the first refused
 * call to the end of the last) and how long they were slower than before the fault (over three
 * times the p99 before it, and at least 1 s). Kept in `.data/faults/report.json`, one entry per fault.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { faultsDataDir } from './fault-stack';
import type { Sample } from './steady-load';

export interface PhaseFigures {
  calls: number;
  byStatus: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface Availability {
  before: PhaseFigures;
  during: PhaseFigures;
  after: PhaseFigures;
  /** From the first refused (non-201) call's start to the last one's end; 0 when none was refused. */
  refusedForMs: number;
  /** From the first slow call's start to the last one's end; 0 when none was slow. */
  slowerForMs: number;
  slowThresholdMs: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);

function figures(samples: Sample[]): PhaseFigures {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const byStatus: Record<string, number> = {};
  for (const s of samples) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
  return { calls: samples.length, byStatus, p50Ms: percentile(ms, 0.5), p99Ms: percentile(ms, 0.99), maxMs: ms.at(-1) ?? 0 };
}

const spanOf = (samples: Sample[]) => (samples.length === 0 ? 0 : Math.max(...samples.map((s) => s.at + s.ms)) - Math.min(...samples.map((s) => s.at)));

/** `faultAt`: when the fault began; `healedAt`: when it was healed (or ended by itself). */
export function availabilityOf(samples: Sample[], faultAt: number, healedAt: number): Availability {
  const before = samples.filter((s) => s.at < faultAt);
  const during = samples.filter((s) => s.at >= faultAt && s.at < healedAt);
  const after = samples.filter((s) => s.at >= healedAt);
  const beforeFigures = figures(before);
  const slowThresholdMs = Math.max(1000, 3 * beforeFigures.p99Ms);
  const fromFault = samples.filter((s) => s.at + s.ms >= faultAt);
  return {
    before: beforeFigures,
    during: figures(during),
    after: figures(after),
    refusedForMs: spanOf(fromFault.filter((s) => s.status !== 201)),
    slowerForMs: spanOf(fromFault.filter((s) => s.ms > slowThresholdMs)),
    slowThresholdMs,
  };
}

export const reportFile = () => join(faultsDataDir(), 'report.json');

/** Adds (or replaces) the fault's entry in the run's JSON report. */
export function keepInReport(fault: string, entry: Record<string, unknown>): void {
  const file = reportFile();
  const report: Record<string, unknown> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  report[fault] = entry;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
