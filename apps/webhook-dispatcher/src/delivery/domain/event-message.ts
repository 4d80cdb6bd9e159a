/**
 * Parsing of `product.risk-assessment-executed` messages and the callback body built from them.
 * Pure functions, no I/O.
 */
import { messageValidator, RISK_ASSESSMENT_EXECUTED, RISK_ASSESSMENT_EXECUTED_SCHEMA, type RiskAssessmentExecutedMessage } from '@tailsync/contracts';

export type ParsedEvent = { ok: true; event: RiskAssessmentExecutedMessage } | { ok: false; reason: string };

// The schema published in /asyncapi.json and libs/contracts/schemas: producers get the reason it gives.
const checkSchema = messageValidator(RISK_ASSESSMENT_EXECUTED_SCHEMA);

/**
 * Validates one message: value JSON meeting the `RiskAssessmentExecuted` JSON Schema, key (when
 * present) equal to the domain. The reason of a refusal goes to the DLQ with the message.
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
  const reason = checkSchema(parsed);
  if (reason !== null) return { ok: false, reason };
  const event = parsed as RiskAssessmentExecutedMessage;
  if (key !== null && key !== undefined && key.length > 0) {
    const keyText = typeof key === 'string' ? key : key.toString('utf8');
    if (keyText !== event.domain) return { ok: false, reason: 'message key does not match the domain' };
  }
  return { ok: true, event: { eventId: event.eventId.toLowerCase(), domain: event.domain, occurredAt: event.occurredAt, data: event.data } };
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
