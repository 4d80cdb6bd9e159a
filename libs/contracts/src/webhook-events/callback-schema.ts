import { JSON_SCHEMA_DRAFT_07, messageSchemaId, type JsonSchema } from '../kafka/json-schema';
import type { WebhookEventType } from './webhook-event-type';

/** The event id the examples show (the OpenAPI document's headers too). */
export const EXAMPLE_CALLBACK_EVENT_ID = '0b6f1a52-6c1e-4b7e-9a59-3f1d2c8e7a40';

/** The name of an event type's callback body (`RiskAssessmentExecutedCallback`) in every catalog. */
export const callbackSchemaName = (type: WebhookEventType): string => `${type.input.message.name}Callback`;

/** The name of its `data` (`RiskAssessmentExecutedData`). */
export const callbackDataSchemaName = (type: WebhookEventType): string => `${type.input.message.name}Data`;

/** A property of the input message schema: the callback passes it on unchanged, so its schema is the callback's. */
function inputProperty(type: WebhookEventType, name: 'eventId' | 'domain' | 'occurredAt' | 'data'): JsonSchema {
  const schema = type.input.message.payload.properties?.[name];
  if (!schema) throw new Error(`${type.input.message.name}'s schema has no \`${name}\`: every webhook input message carries the envelope`);
  return schema;
}

/** The schema of an event type's callback `data`: its input messages' `data`, which the dispatcher passes through. */
export const callbackDataSchema = (type: WebhookEventType): JsonSchema => inputProperty(type, 'data');

/**
 * The JSON Schema of an event type's callback body (contract, "Events and delivery"): its input
 * message's envelope with `eventName` added. Not closed: a receiver should ignore members it does
 * not know, so the service may add some without a new major version.
 */
export function callbackSchema(type: WebhookEventType): JsonSchema {
  const { name, version } = type.input.message;
  return {
    $schema: JSON_SCHEMA_DRAFT_07,
    $id: messageSchemaId(callbackSchemaName(type), version),
    title: callbackSchemaName(type),
    description: `The body of a \`${type.name}\` callback; \`data\` is the event's data exactly as its producer sent it (the ${name} message).`,
    type: 'object',
    required: ['eventId', 'eventName', 'occurredAt', 'domain', 'data'],
    properties: {
      eventId: { ...inputProperty(type, 'eventId'), description: 'The event id; also the `webhook-id` header, the same on every attempt: dedupe on it.' },
      eventName: { type: 'string', const: type.name, description: 'The event type: tells the callbacks of one type from another\'s.' },
      occurredAt: inputProperty(type, 'occurredAt'),
      domain: { ...inputProperty(type, 'domain'), description: 'Your domain.' },
      data: callbackDataSchema(type),
    },
    examples: [{ eventId: EXAMPLE_CALLBACK_EVENT_ID, eventName: type.name, occurredAt: '2026-01-01T00:00:00.000Z', domain: 'acme', data: type.callback.exampleData }],
  };
}
