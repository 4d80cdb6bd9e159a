/**
 * Parsing of `product.risk-assessment-executed` messages and the callback body built from them.
 * Pure functions, no I/O.
 */
import { RISK_ASSESSMENT_EXECUTED, type RiskAssessmentExecutedMessage } from '@tailsync/contracts';

/** A domain as service accounts carry it (contract, "Authentication"). */
export const DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// ISO-8601 date-time with a time zone (Z or ±hh:mm), optional fraction.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export type ParsedEvent = { ok: true; event: RiskAssessmentExecutedMessage } | { ok: false; reason: string };

/**
 * Validates one message: value JSON `{ eventId: uuid, domain, occurredAt: ISO-8601, data: object }`,
 * key (when present) equal to the domain. The reason of a refusal goes to the DLQ with the message.
 */
export function parseRiskAssessmentMessage(key: Buffer | string | null | undefined, value: Buffer | string | null | undefined): ParsedEvent {
  if (value === null || value === undefined || value.length === 0) return { ok: false, reason: 'empty message value' };
  let parsed: unknown;
  try {
    const text = typeof value === 'string' ? value : new TextDecoder('utf-8', { fatal: true }).decode(value);
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'value is not valid UTF-8 JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, reason: 'value is not a JSON object' };
  const { eventId, domain, occurredAt, data } = parsed as Record<string, unknown>;
  if (typeof eventId !== 'string' || !UUID.test(eventId)) return { ok: false, reason: 'eventId must be a UUID' };
  if (typeof domain !== 'string' || !DOMAIN_PATTERN.test(domain)) return { ok: false, reason: 'domain is missing or malformed' };
  if (typeof occurredAt !== 'string' || !ISO_DATE_TIME.test(occurredAt) || Number.isNaN(Date.parse(occurredAt))) {
    return { ok: false, reason: 'occurredAt must be an ISO-8601 date-time with a time zone' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, reason: 'data must be a JSON object' };
  if (key !== null && key !== undefined && key.length > 0) {
    const keyText = typeof key === 'string' ? key : key.toString('utf8');
    if (keyText !== domain) return { ok: false, reason: 'message key does not match the domain' };
  }
  return { ok: true, event: { eventId: eventId.toLowerCase(), domain, occurredAt, data: data as Record<string, unknown> } };
}

/**
 * The exact callback body (contract, "Events and delivery"): `{ eventId, eventName, occurredAt,
 * domain, data }` with `data` passed through. Stored with the delivery and sent byte for byte on
 * every attempt, so `payloadHash` is the same for each.
 */
export function callbackBody(event: RiskAssessmentExecutedMessage): string {
  return JSON.stringify({
    eventId: event.eventId,
    eventName: RISK_ASSESSMENT_EXECUTED,
    occurredAt: event.occurredAt,
    domain: event.domain,
    data: event.data,
  });
}
