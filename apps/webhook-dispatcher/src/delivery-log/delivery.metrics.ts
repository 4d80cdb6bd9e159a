import { metricsRegistry, registeredMetric } from '@tailsync/service-kit';
import { Counter, Gauge, Histogram } from 'prom-client';

/** The dispatcher's Prometheus metrics, on `/metrics` with the process defaults. */
export class DeliveryMetrics {
  /** Deliveries that reached an end state, and attempts scheduled for a retry. */
  readonly deliveries = registeredMetric('webhook_deliveries_total', () =>
    new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery outcomes: delivered, failed (end states) and retry-scheduled (an attempt to be retried)',
      labelNames: ['outcome'] as const,
      registers: [metricsRegistry],
    }),
  );

  readonly attemptDuration = registeredMetric('webhook_attempt_duration_seconds', () =>
    new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of one callback attempt (connect to response), by result class',
      labelNames: ['result'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [metricsRegistry],
    }),
  );

  /** Callbacks as HTTP client requests: OpenTelemetry's `http.client.request.duration`. */
  readonly callbackDuration = registeredMetric('http_client_request_duration_seconds', () =>
    new Histogram({
      name: 'http_client_request_duration_seconds',
      help: 'Duration of callback requests (OpenTelemetry http.client.request.duration), by status, or error.type when none came',
      labelNames: ['http_request_method', 'http_response_status_code', 'error_type'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
      registers: [metricsRegistry],
    }),
  );

  readonly queueDepth = registeredMetric('webhook_retry_queue_depth', () =>
    new Gauge({
      name: 'webhook_retry_queue_depth',
      help: 'Deliveries pending (waiting for their first attempt or a retry), refreshed every few seconds',
      registers: [metricsRegistry],
    }),
  );

  readonly skipped = registeredMetric('webhook_events_skipped_total', () =>
    new Counter({
      name: 'webhook_events_skipped_total',
      help: 'Consumed events not sent: no-subscription, event-not-subscribed, duplicate, malformed (sent to the DLQ), subscription-disabled (recorded as a skipped delivery)',
      labelNames: ['reason'] as const,
      registers: [metricsRegistry],
    }),
  );

  /** Delivery-log retention (DeliveryLogRetention): weekly partitions, and how long ago the oldest one's week ended. */
  readonly logPartitions = registeredMetric('webhook_delivery_log_partitions', () =>
    new Gauge({ name: 'webhook_delivery_log_partitions', help: 'Weekly partitions of the delivery log (webhook_deliveries)', registers: [metricsRegistry] }),
  );

  readonly logOldestWeekEnd = registeredMetric('webhook_delivery_log_oldest_week_end_seconds', () =>
    new Gauge({
      name: 'webhook_delivery_log_oldest_week_end_seconds',
      help: 'How long ago the oldest week kept in the delivery log ended (negative while it has not); dropped once past the retention',
      registers: [metricsRegistry],
    }),
  );

  readonly logRetention = registeredMetric('webhook_delivery_log_retention_seconds', () =>
    new Gauge({ name: 'webhook_delivery_log_retention_seconds', help: 'WEBHOOK_LOG_RETENTION_DAYS, in seconds', registers: [metricsRegistry] }),
  );

  readonly consumed = registeredMetric('webhook_events_consumed_total', () =>
    new Counter({ name: 'webhook_events_consumed_total', help: 'Messages read from the input topics of the webhook event types', registers: [metricsRegistry] }),
  );
}
