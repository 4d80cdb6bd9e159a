import type { IHeaders } from 'kafkajs';
import {
  CLOUDEVENTS_SPEC_VERSION,
  JSON_CONTENT_TYPE,
  TAIL_EVENT_SCHEMA_ID,
  TAIL_EVENTS_SOURCE,
  tailEventCloudEventType,
} from '@tailsync/contracts';

// Constant values as Buffers: the record encoder copies them instead of measuring and encoding a
// string for every message (the relay sends up to 1,000 per batch).
const SPEC_VERSION = Buffer.from(CLOUDEVENTS_SPEC_VERSION);
const SOURCE = Buffer.from(TAIL_EVENTS_SOURCE);
const CONTENT_TYPE = Buffer.from(JSON_CONTENT_TYPE);
const DATASCHEMA = Buffer.from(TAIL_EVENT_SCHEMA_ID);
const ceTypes = new Map<string, Buffer>();

function ceTypeOf(type: string): Buffer {
  let value = ceTypes.get(type);
  if (!value) ceTypes.set(type, (value = Buffer.from(tailEventCloudEventType(type))));
  return value;
}

/**
 * Headers of a `tailsync.tail-events` message: CloudEvents (Kafka binding, binary mode), the
 * `event-type` and `event-id` headers consumers had before them, and the W3C `traceparent` of the
 * request that recorded the event when it had one. Literal names (those of CLOUDEVENTS_HEADERS,
 * the relay's spec checks them) let V8 build the object from one template.
 */
export function tailEventHeaders(eventId: string, type: string, occurredAt: string, traceparent: unknown): IHeaders {
  const headers = cloudEventHeaders(eventId, type, occurredAt);
  if (typeof traceparent === 'string') headers.traceparent = traceparent;
  return headers;
}

function cloudEventHeaders(eventId: string, type: string, occurredAt: string): IHeaders {
  return {
    'event-type': type,
    'event-id': eventId,
    ce_specversion: SPEC_VERSION,
    ce_id: eventId,
    ce_source: SOURCE,
    ce_type: ceTypeOf(type),
    ce_time: occurredAt,
    ce_dataschema: DATASCHEMA,
    'content-type': CONTENT_TYPE,
  };
}
