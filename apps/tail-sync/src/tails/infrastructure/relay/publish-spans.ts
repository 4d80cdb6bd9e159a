import { propagation, ROOT_CONTEXT, type Span, SpanKind, trace } from '@opentelemetry/api';
import type { Message } from 'kafkajs';

const tracer = trace.getTracer('tailsync.tail-events-relay');

/**
 * While tracing is on, one `send` span per message whose event was recorded in a traced request,
 * a child of that request's span (the event's stored `traceparent`); the message's `traceparent`
 * header then names the send span. Off, nothing records and the stored `traceparent` goes on as
 * it is. The caller ends the spans once the broker acknowledged the send.
 */
export function startPublishSpans(topic: string, messages: Message[]): Span[] {
  const spans: Span[] = [];
  for (const message of messages) {
    const headers = message.headers;
    const traceparent = headers?.traceparent;
    if (typeof traceparent !== 'string') continue;
    const parent = propagation.extract(ROOT_CONTEXT, { traceparent });
    const span = tracer.startSpan(
      `send ${topic}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'send',
          'messaging.destination.name': topic,
          'messaging.kafka.message.key': String(message.key),
        },
      },
      parent,
    );
    if (!span.isRecording()) continue;
    propagation.inject(trace.setSpan(parent, span), headers);
    spans.push(span);
  }
  return spans;
}

/** Ends the spans of a send, marked failed when it was. */
export function endPublishSpans(spans: Span[], error?: unknown): void {
  for (const span of spans) {
    if (error !== undefined) span.recordException(error as Error);
    span.end();
  }
}

