import { collectDefaultMetrics, Registry } from 'prom-client';

/** The process-wide Prometheus registry; apps add their own counters and histograms to it. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
