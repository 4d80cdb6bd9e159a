/** Small statistics helpers: percentiles of samples (nearest rank) and rounding for the report. */

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of already sorted values. */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    count: sorted.length,
    p50: round(percentileSorted(sorted, 50)),
    p99: round(percentileSorted(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
    mean: round(sorted.length ? sum / sorted.length : NaN),
  };
}

export const round = (v: number, digits = 2): number => (Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : v);

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A monotonic clock in ms (the same clock V8's CPU profiler stamps its samples with). */
export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;
