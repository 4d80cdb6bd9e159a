import { context, createContextKey, isSpanContextValid, propagation, trace } from '@opentelemetry/api';

/** What a request or event is known by: its id and, when the caller sent one, its W3C `traceparent`. */
export interface RequestOrigin {
  requestId: string;
  traceparent?: string;
}

/** The fields that tie a log line to its request or event. */
export interface LogCorrelation {
  requestId?: string;
  traceId?: string;
}

const REQUEST_ID = createContextKey('tailsync.requestId');

/** W3C trace context: version-traceid-parentid-flags, lowercase hex. */
const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** The value when it is a well-formed W3C `traceparent`. */
export function validTraceparent(value: unknown): string | undefined {
  return typeof value === 'string' && TRACEPARENT.test(value) ? value : undefined;
}

/**
 * Runs `work` as part of the request (or event) `origin`. While tracing is on, the OpenTelemetry
 * context carries its id to every log line made within (pino's mixin, {@link logCorrelation});
 * off, there is no context to carry it (no AsyncLocalStorage: its promise hooks would cost every
 * request), and the lines of a request name it themselves ({@link correlationOf}).
 */
export function runInRequest<T>(origin: RequestOrigin, work: () => T): T {
  return context.with(context.active().setValue(REQUEST_ID, origin.requestId), work);
}

/**
 * Runs work later as part of the request active now (its span and request id, while tracing is
 * on): for a call that carries the request but is sent from another request's callback, as a
 * batched call is when the call before it ends.
 */
export function inThisRequest(): <T>(work: () => T) => T {
  const active = context.active();
  return (work) => context.with(active, work);
}

/** The trace id of the span being recorded, when tracing is on. */
function activeTraceId(): string | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const spanContext = span.spanContext();
  return isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/**
 * What a log line says about its request or event, explicitly: its id, and its trace id (the
 * recorded span's while tracing is on, else the caller's `traceparent`'s).
 */
export function correlationOf(origin: RequestOrigin): LogCorrelation {
  const traceId = activeTraceId() ?? (origin.traceparent === undefined ? undefined : TRACEPARENT.exec(origin.traceparent)?.[1]);
  return traceId === undefined ? { requestId: origin.requestId } : { requestId: origin.requestId, traceId };
}

/** pino's `mixin`: while tracing is on, every line made within a request or event names it. */
export function logCorrelation(): LogCorrelation {
  const active = context.active();
  const requestId = active.getValue(REQUEST_ID) as string | undefined;
  const traceId = activeTraceId();
  if (requestId === undefined) return traceId === undefined ? {} : { traceId };
  return traceId === undefined ? { requestId } : { requestId, traceId };
}

/**
 * The W3C `traceparent` a record carries on (a stored event, a delivery): the span being recorded
 * when tracing is on, else the caller's own passed through unchanged.
 */
export function traceparentToCarry(origin: { traceparent?: string }): string | undefined {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? origin.traceparent;
}
