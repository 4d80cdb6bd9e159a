import type { FastifyInstance } from 'fastify';
import { Histogram } from 'prom-client';
import { isProbe } from './request-path';
import { metricsRegistry, registeredMetric } from './metrics';

/** Buckets of OpenTelemetry's `http.server.request.duration` (its advised boundaries, in seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const requestDuration = (): Histogram<'http_request_method' | 'http_route' | 'http_response_status_code'> => {
  const name = 'http_server_request_duration_seconds';
  return registeredMetric(
    name,
    () =>
      new Histogram({
        name,
        help: 'Duration of HTTP server requests (OpenTelemetry http.server.request.duration), by method, route template and status',
        labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
        buckets: DURATION_BUCKETS,
        registers: [metricsRegistry],
      }),
  );
};

/**
 * `http_server_request_duration_seconds`, the Prometheus name of OpenTelemetry's
 * `http.server.request.duration`: every request but probes and scrapes, labelled with its route
 * template (never the raw path: one series per route, whatever the ids in it).
 */
export function addRequestDurations(http: FastifyInstance): void {
  const histogram = requestDuration();
  http.addHook('onResponse', (req, reply, done) => {
    if (!isProbe(req)) {
      histogram.observe(
        { http_request_method: req.method, http_route: req.routeOptions.url ?? 'unmatched', http_response_status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    }
    done();
  });
}
