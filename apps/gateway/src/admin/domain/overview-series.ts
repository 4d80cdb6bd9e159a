import type { MinuteCount } from '@tailsync/contracts';

export const SERIES = ['tailsWritten', 'eventsConsumed', 'delivered', 'failed', 'skipped'] as const;
export type SeriesName = (typeof SERIES)[number];
export type ActivitySeries = Record<SeriesName, number[]>;

const MINUTE_MS = 60_000;

/** The starts of the last `count` minutes, the current one last (ISO-8601). */
export function lastMinutes(nowMs: number, count: number): string[] {
  const current = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
  return Array.from({ length: count }, (_, i) => new Date(current - (count - 1 - i) * MINUTE_MS).toISOString());
}

/** Per-minute arrays for the whole system and for each domain with any activity (by name). */
export function minuteSeries(minutes: string[], counts: Record<SeriesName, MinuteCount[]>): { total: ActivitySeries; domains: ({ domain: string } & ActivitySeries)[] } {
  const index = new Map(minutes.map((minute, i) => [minute, i]));
  const empty = (): ActivitySeries => Object.fromEntries(SERIES.map((name) => [name, minutes.map(() => 0)])) as ActivitySeries;
  const total = empty();
  const byDomain = new Map<string, ActivitySeries>();
  for (const name of SERIES) {
    for (const { minute, domain, count } of counts[name]) {
      const i = index.get(minute);
      if (i === undefined) continue; // outside the window (a clock step between the services)
      total[name][i] += count;
      if (!byDomain.has(domain)) byDomain.set(domain, empty());
      (byDomain.get(domain) as ActivitySeries)[name][i] += count;
    }
  }
  const domains = [...byDomain].sort(([a], [b]) => a.localeCompare(b)).map(([domain, series]) => ({ domain, ...series }));
  return { total, domains };
}
