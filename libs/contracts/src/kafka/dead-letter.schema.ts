import { DATE_TIME_SCHEMA, JSON_SCHEMA_DRAFT_07, messageSchemaId, type JsonSchema } from './json-schema';

/** Version of the dead-letter schemas of every `.dlq` topic. */
export const DEAD_LETTER_SCHEMA_VERSION = '1.0.0';

/** Header names on a dead-lettered message. */
export const DLQ_HEADERS = {
  reason: 'dlq-reason',
  topic: 'dlq-source-topic',
  partition: 'dlq-source-partition',
  offset: 'dlq-source-offset',
  at: 'dlq-at',
} as const;

/**
 * The schemas of a `.dlq` message named `messageName`: its value is the refused message's value,
 * byte for byte (it may not even be JSON), under its original key; what the dead letter adds is in
 * its headers.
 */
export function deadLetterSchemas(messageName: string): { payload: JsonSchema; headers: JsonSchema } {
  return {
    payload: {
      $schema: JSON_SCHEMA_DRAFT_07,
      $id: messageSchemaId(messageName, DEAD_LETTER_SCHEMA_VERSION),
      title: messageName,
      description: 'The refused message\'s value exactly as it was produced (any bytes; not necessarily JSON).',
    },
    headers: {
      $schema: JSON_SCHEMA_DRAFT_07,
      $id: messageSchemaId(`${messageName}.headers`, DEAD_LETTER_SCHEMA_VERSION),
      title: `${messageName} headers`,
      type: 'object',
      required: [DLQ_HEADERS.reason, DLQ_HEADERS.topic, DLQ_HEADERS.partition, DLQ_HEADERS.offset, DLQ_HEADERS.at],
      properties: {
        [DLQ_HEADERS.reason]: { type: 'string', minLength: 1, description: 'Why it was refused: the JSON Schema validator\'s first error (e.g. `/eventId must match pattern …`), or why it could not be read as JSON.' },
        [DLQ_HEADERS.topic]: { type: 'string', description: 'The topic it was read from.' },
        [DLQ_HEADERS.partition]: { type: 'string', pattern: '^[0-9]+$', description: 'Its partition there.' },
        [DLQ_HEADERS.offset]: { type: 'string', pattern: '^[0-9]+$', description: 'Its offset there.' },
        [DLQ_HEADERS.at]: { ...DATE_TIME_SCHEMA, description: 'When it was dead-lettered.' },
      },
    },
  };
}
