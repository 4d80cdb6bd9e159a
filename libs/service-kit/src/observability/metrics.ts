import { collectDefaultMetrics, type Metric, Registry } from 'prom-client';

/** The process-wide Prometheus registry; apps add their own counters and histograms to it. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/**
 * The metric registered under `name`, made by `create` (which registers it) the first time only:
 * tests build an app several times in one process, and the registry refuses a name twice.
 */
export function registeredMetric<T extends Metric>(name: string, create: () => T): T {
  return (metricsRegistry.getSingleMetric(name) as T | undefined) ?? create();
}
