import { metricsRegistry } from '@tailsync/service-kit';
import type { ReaderLags } from '../application/reader-lags';
import { ReaderLagMetrics } from './reader-lag.metrics';

describe("tail-sync's reader lag on /metrics", () => {
  it('leaves the series out when the event store does not answer, and the scrape answers in time (a copy cut off from PostgreSQL must not read as down)', async () => {
    const unanswered = { all: () => new Promise(() => undefined) } as unknown as ReaderLags;
    new ReaderLagMetrics(unanswered).onModuleInit();
    const t0 = Date.now();
    const scrape = await Promise.race([metricsRegistry.metrics(), new Promise<string>((r) => setTimeout(() => r('no answer in 5 s'), 5_000).unref())]);
    expect(scrape).not.toBe('no answer in 5 s');
    // Below a 2 s scrape interval's time-out (the fault suite's 1.5 s), with room for a loaded machine.
    expect(Date.now() - t0).toBeLessThan(1_500);
    expect(scrape).not.toMatch(/^tailsync_reader_lag_(seconds|events)\{/m);
    expect(scrape).toMatch(/^# TYPE tailsync_reader_lag_seconds gauge/m);
  }, 15_000);
});
