import { Injectable, OnModuleInit } from '@nestjs/common';
import { metricsRegistry, ScrapeRead } from '@tailsync/service-kit';
import type { ReaderLag } from '@tailsync/contracts';
import { Gauge } from 'prom-client';
import { ReaderLags } from '../application/reader-lags';

/**
 * `tailsync_reader_lag_seconds` and `tailsync_reader_lag_events`: how far the projection (`tails`)
 * and the relay to Kafka are behind the event log, read at each scrape (both gauges from one read).
 * A store that does not answer within a second leaves them out of that scrape: a copy cut off from
 * PostgreSQL goes on answering its scrapes, and does not read as down.
 */
@Injectable()
export class ReaderLagMetrics implements OnModuleInit {
  constructor(private readonly lags: ReaderLags) {}

  onModuleInit(): void {
    // Both gauges of one scrape from one read.
    const lags = new ScrapeRead<ReaderLag[]>("the readers' lag", () => this.lags.all(), [], 1_000);
    const gauge = (name: string, help: string, value: (lag: ReaderLag) => number) => {
      metricsRegistry.removeSingleMetric(name);
      new Gauge({
        name,
        help,
        labelNames: ['reader'] as const,
        registers: [metricsRegistry],
        async collect() {
          this.reset();
          for (const lag of await lags.current()) this.set({ reader: lag.name }, value(lag));
        },
      });
    };
    gauge('tailsync_reader_lag_seconds', 'Age of the oldest event a reader of the event log (projection `tails`, relay) has not read yet; 0 when caught up', (l) => l.seconds);
    gauge('tailsync_reader_lag_events', 'Events a reader of the event log has not read yet (counting stops at 1000)', (l) => l.events);
  }
}
