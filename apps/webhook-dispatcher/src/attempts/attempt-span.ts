import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { correlationOf, type LogCorrelation, runInRequest } from '@tailsync/service-kit';
import type { ClaimedDelivery } from '../delivery-log/delivery';

const tracer = trace.getTracer('tailsync.webhook-dispatcher');

/**
 * Runs one attempt of `delivery` as its event's work: a span (while tracing is on) in the trace of
 * the event message's `traceparent` (a new trace when it had none); `log` is what its log lines
 * carry: the event id as `requestId` and that trace's id. The callback's HTTP span is this span's child.
 */
export function inAttemptSpan<T>(delivery: ClaimedDelivery, attempt: number, work: (span: Span, log: LogCorrelation) => Promise<T>): Promise<T> {
  const parent = delivery.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { traceparent: delivery.traceparent });
  const span = tracer.startSpan(
    `deliver ${delivery.eventName}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'tailsync.delivery.id': delivery.id,
        'tailsync.delivery.attempt': attempt,
        'tailsync.domain': delivery.domain,
        'messaging.message.id': delivery.eventId,
      },
    },
    parent,
  );
  const origin = { requestId: delivery.eventId, traceparent: delivery.traceparent };
  return runInRequest(origin, () =>
    context.with(trace.setSpan(context.active(), span), async () => {
      try {
        return await work(span, correlationOf(origin));
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    }),
  );
}
