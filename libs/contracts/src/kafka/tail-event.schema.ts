import { TAIL_EVENTS_SOURCE, tailEventCloudEventType } from '../cloudevents';
import { TAIL_PROPERTIES, TAIL_PROPERTY_KINDS, TAIL_PROPERTY_NAMES, type TailPropertyValue } from '../tail-properties';
import { cloudEventHeadersSchema } from './cloud-event-headers.schema';
import { dataByType, DATE_TIME_SCHEMA, DOMAIN_SCHEMA, JSON_SCHEMA_DRAFT_07, messageSchemaId, UUID_SCHEMA, type JsonSchema } from './json-schema';

/** Version of the `tailsync.tail-events` value schema (rules: libs/contracts/README.md, "Evolution"). */
export const TAIL_EVENT_SCHEMA_VERSION = '1.0.0';
export const TAIL_EVENT_SCHEMA_ID = messageSchemaId('TailEvent', TAIL_EVENT_SCHEMA_VERSION);

const text = (description: string): JsonSchema => ({ type: 'string', description });
const actor = text('clientId of the service account that acted.');

/** What a kind of property value says beyond its type, before "null when not given.". */
const KIND_NOTES: Record<TailPropertyValue['kind'], string> = { text: '', 'country-code': 'ISO 3166-1 alpha-2; ', integer: '' };

/** `TailCreated` carries every tail property, `null` when not given (tail-properties.ts). */
const PROPERTY_FIELDS: Record<string, JsonSchema> = Object.fromEntries(
  TAIL_PROPERTIES.map(({ name, value }) => [name, { type: [TAIL_PROPERTY_KINDS[value.kind].json, 'null'], description: `${KIND_NOTES[value.kind]}null when not given.` }]),
);

/** Data of each tail event type: the event's own fields (the envelope is not repeated). */
const DATA: Record<string, JsonSchema> = {
  TailCreated: {
    type: 'object',
    required: ['actor', 'source', 'mappedId', 'tailNumber', ...TAIL_PROPERTY_NAMES],
    properties: {
      actor,
      source: text('clientId of the creator: the source of the first Mapped ID.'),
      mappedId: text('The creator\'s Mapped ID.'),
      tailNumber: text('The tail number, trimmed.'),
      ...PROPERTY_FIELDS,
    },
  },
  MappingAdded: {
    type: 'object',
    required: ['actor', 'source', 'mappedId'],
    properties: { actor, source: text('clientId of the source the Mapped ID belongs to.'), mappedId: text('The added Mapped ID.') },
  },
  TailDeactivated: { type: 'object', required: ['actor'], properties: { actor } },
  TailReactivated: { type: 'object', required: ['actor'], properties: { actor } },
  TailRenumbered: {
    type: 'object',
    required: ['actor', 'fromTailNumber', 'toTailNumber'],
    properties: { actor, fromTailNumber: text('The tail number before.'), toTailNumber: text('The tail number after.') },
  },
};

export const TAIL_EVENT_TYPES_PUBLISHED = Object.keys(DATA);

/** Value of a `tailsync.tail-events` message (`TailEventMessage`). */
export const TAIL_EVENT_SCHEMA: JsonSchema = {
  $schema: JSON_SCHEMA_DRAFT_07,
  $id: TAIL_EVENT_SCHEMA_ID,
  title: 'TailEvent',
  description:
    'One event of one tail. Types today: ' +
    `${TAIL_EVENT_TYPES_PUBLISHED.join(', ')}; ` +
    'skip a type you do not know, and ignore fields you do not know.',
  type: 'object',
  required: ['eventId', 'type', 'domain', 'tailId', 'mappedIds', 'occurredAt', 'data', 'position'],
  properties: {
    eventId: { ...UUID_SCHEMA, description: 'The event\'s id (the event store\'s); equal in every copy of a redelivered message: dedupe on it.' },
    type: { type: 'string', minLength: 1, description: 'The event type.' },
    domain: DOMAIN_SCHEMA,
    tailId: { type: 'integer', minimum: 1, description: 'The service\'s own id of the tail (`tailId` of the REST API\'s tail view).' },
    mappedIds: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 50 },
      description: 'Every Mapped ID of the tail (all sources) after the event, oldest first.',
    },
    occurredAt: { ...DATE_TIME_SCHEMA, description: 'When the event occurred.' },
    data: { type: 'object', required: ['actor'], properties: { actor }, description: 'The event\'s own fields, by type.' },
    position: {
      type: 'string',
      pattern: '^[0-9]+:[0-9]+$',
      description:
        'The event\'s position in the event store, "<major>:<minor>" (two unsigned integers, compared as numbers, major first). ' +
        'It increases along the events of one tail; use it to tell a redelivered older event from a newer one, not as a Kafka offset.',
    },
  },
  allOf: dataByType(DATA),
};

const ceHeaders = cloudEventHeadersSchema({
  message: 'TailEvent',
  version: TAIL_EVENT_SCHEMA_VERSION,
  source: TAIL_EVENTS_SOURCE,
  typePrefix: tailEventCloudEventType(''),
  dataschema: TAIL_EVENT_SCHEMA_ID,
});

/** CloudEvents headers of a `tailsync.tail-events` message, and the two it had before them. */
export const TAIL_EVENT_HEADERS_SCHEMA: JsonSchema = {
  ...ceHeaders,
  properties: {
    ...ceHeaders.properties,
    'event-type': { type: 'string', description: 'The value\'s `type` (kept from before CloudEvents).' },
    'event-id': { type: 'string', description: 'The value\'s `eventId` (kept from before CloudEvents).' },
  },
};
