import { AsyncLocalStorage } from 'node:async_hooks';
import { context, isSpanContextValid, propagation, trace } from '@opentelemetry/api';

/** What a request or event is known by: its id and, when the caller sent one, its W3C `traceparent`. */
export interface RequestOrigin {
  requestId: string;
  traceparent?: string;
}

interface RequestContext {
  requestId: string;
  /** The trace id of the caller's `traceparent` (the log's `traceId` while tracing is off). */
  traceId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** W3C trace context: version-traceid-parentid-flags, lowercase hex. */
const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** The value when it is a well-formed W3C `traceparent`. */
export function validTraceparent(value: unknown): string | undefined {
  return typeof value === 'string' && TRACEPARENT.test(value) ? value : undefined;
}

/** Runs `work` as part of the request (or event) `origin`: its log lines carry its id and trace id. */
export function runInRequest<T>(origin: RequestOrigin, work: () => T): T {
  const traceId = origin.traceparent === undefined ? undefined : TRACEPARENT.exec(origin.traceparent)?.[1];
  return storage.run(traceId === undefined ? { requestId: origin.requestId } : { requestId: origin.requestId, traceId }, work);
}

/** The trace id of the span being recorded, when tracing is on. */
function activeTraceId(): string | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const spanContext = span.spanContext();
  return isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/**
 * What a log line says about the request or event it belongs to (pino's `mixin`): `requestId`
 * and `traceId` (the recorded span's, else the caller's traceparent's).
 */
export function logCorrelation(): { requestId?: string; traceId?: string } {
  const store = storage.getStore();
  const traceId = activeTraceId() ?? store?.traceId;
  if (store === undefined) return traceId === undefined ? {} : { traceId };
  return traceId === undefined ? { requestId: store.requestId } : { requestId: store.requestId, traceId };
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
