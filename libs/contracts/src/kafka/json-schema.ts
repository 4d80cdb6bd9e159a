/**
 * The JSON Schema (draft-07) subset the Kafka message schemas use: draft-07 is what AsyncAPI's
 * default schema format extends and what validators in every language support.
 */
export interface JsonSchema {
  $schema?: string;
  $id?: string;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: (string | number | null)[];
  const?: string | number;
  pattern?: string;
  format?: 'date-time' | 'uri';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  examples?: unknown[];
}

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export const JSON_SCHEMA_DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** `$id` of a message schema: names the message and its version (a URN, as JSON Schema allows). */
export function messageSchemaId(message: string, version: string): string {
  return `urn:tailsync:schema:${message}:${version}`;
}

export const UUID_SCHEMA: JsonSchema = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'A UUID.',
};

/** A domain as service accounts carry it (contract, "Authentication"). */
export const DOMAIN_SCHEMA: JsonSchema = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$', description: 'The domain of the service accounts concerned.' };

export const DATE_TIME_SCHEMA: JsonSchema = { type: 'string', format: 'date-time', description: 'RFC 3339 date-time with a time zone.' };

/**
 * What producers may send as a date-time (the interface says ISO-8601): seconds and their
 * fraction optional, a time zone required, `±hh:mm` or `±hhmm`. Wider than RFC 3339, as the
 * dispatcher has always accepted; a pattern, so validators in every language apply it.
 */
export const ISO_8601_DATE_TIME_SCHEMA: JsonSchema = {
  type: 'string',
  pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]([01]\\d|2[0-3]):?[0-5]\\d)$',
  description: 'ISO-8601 date-time with a time zone (Z or ±hh:mm); seconds optional.',
};

/**
 * One schema per event type, chosen by the message's `type`: `if type is T then data is D`. A
 * type the schema does not list only has to meet the common part, so a consumer validating with
 * an older schema still accepts a newer event type (which it should skip).
 */
export function dataByType(types: Record<string, JsonSchema>): JsonSchema[] {
  return Object.entries(types).map(([type, data]) => ({
    if: { properties: { type: { const: type } }, required: ['type'] },
    then: { properties: { data } },
  }));
}
