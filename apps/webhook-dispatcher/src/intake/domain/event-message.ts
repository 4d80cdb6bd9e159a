/**
 * Parsing of a webhook event type's input messages and the callback body built from them.
 * Pure functions, no I/O.
 */
import { messageValidator, type WebhookEventMessage, type WebhookEventType } from '@tailsync/contracts';

export type ParsedEvent = { ok: true; event: WebhookEventMessage } | { ok: false; reason: string };

/** Parses one message of an input topic: `(key, value) => ParsedEvent`. */
export type EventMessageParser = (key: Buffer | string | null | undefined, value: Buffer | string | null | undefined) => ParsedEvent;

/**
 * The parser of `type`'s input messages: value JSON meeting its JSON Schema (the one published in
 * /asyncapi.json and libs/contracts/schemas: producers get the reason it gives), key (when
 * present) equal to the domain. The reason of a refusal goes to the DLQ with the message. The
 * schema is compiled here, once, not per message.
 */
export function eventMessageParser(type: WebhookEventType): EventMessageParser {
  const checkSchema = messageValidator(type.input.message.payload);
  return (key, value) => {
    if (value === null || value === undefined || value.length === 0) return { ok: false, reason: 'empty message value' };
    let parsed: unknown;
    try {
      const text = typeof value === 'string' ? value : new TextDecoder('utf-8', { fatal: true }).decode(value);
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, reason: 'value is not valid UTF-8 JSON' };
    }
    const reason = checkSchema(parsed);
    if (reason !== null) return { ok: false, reason };
    const event = parsed as WebhookEventMessage;
    if (key !== null && key !== undefined && key.length > 0) {
      const keyText = typeof key === 'string' ? key : key.toString('utf8');
      if (keyText !== event.domain) return { ok: false, reason: 'message key does not match the domain' };
    }
    return { ok: true, event: { eventId: event.eventId.toLowerCase(), domain: event.domain, occurredAt: event.occurredAt, data: event.data } };
  };
}

/**
 * The exact callback body (contract, "Events and delivery"): `{ eventId, eventName, occurredAt,
 * domain, data }` with `data` passed through. Stored with the delivery and sent byte for byte on
 * every attempt, so `payloadHash` is the same for each.
 */
export function callbackBody(eventName: string, event: WebhookEventMessage): string {
  return JSON.stringify({
    eventId: event.eventId,
    eventName,
    occurredAt: event.occurredAt,
    domain: event.domain,
    data: event.data,
  });
}
