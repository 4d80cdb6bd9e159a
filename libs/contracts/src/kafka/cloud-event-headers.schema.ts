import { CLOUDEVENTS_HEADERS as CE, CLOUDEVENTS_SPEC_VERSION, JSON_CONTENT_TYPE } from '../cloudevents';
import { DATE_TIME_SCHEMA, JSON_SCHEMA_DRAFT_07, messageSchemaId, type JsonSchema } from './json-schema';

const escape = (text: string): string => text.replace(/[.]/g, '\\.');

/** `urn:…:TailEvent:1.2.0` → `urn:…:TailEvent:1.`: a minor or patch version keeps the schema compatible. */
const majorOf = (schemaId: string): string => schemaId.replace(/[0-9]+\.[0-9]+$/, '');

export interface CloudEventMessage {
  /** The message's name; the headers schema is `<message>.headers`. */
  message: string;
  version: string;
  source: string;
  /** `ce_type` is this prefix + the value's `type`. */
  typePrefix: string;
  /** `$id` of the value's schema. */
  dataschema: string;
}

/** Headers of a message we produce as a CloudEvent (Kafka binding, binary mode); values are UTF-8. */
export function cloudEventHeadersSchema({ message, version, source, typePrefix, dataschema }: CloudEventMessage): JsonSchema {
  return {
    $schema: JSON_SCHEMA_DRAFT_07,
    $id: messageSchemaId(`${message}.headers`, version),
    title: `${message} headers`,
    type: 'object',
    description: 'CloudEvents 1.0 attributes, Kafka protocol binding, binary content mode: the value is the event data.',
    required: [CE.specversion, CE.id, CE.source, CE.type, CE.time, CE.dataschema, CE.contentType],
    properties: {
      [CE.specversion]: { type: 'string', const: CLOUDEVENTS_SPEC_VERSION },
      [CE.id]: { type: 'string', minLength: 1, description: 'The event id: the value\'s `eventId`. Dedupe on it.' },
      [CE.source]: { type: 'string', const: source },
      [CE.type]: { type: 'string', pattern: `^${escape(typePrefix)}[A-Za-z]+$`, description: `\`${typePrefix}\` + the value's \`type\`.` },
      [CE.time]: { ...DATE_TIME_SCHEMA, description: 'When the event occurred: the value\'s `occurredAt`.' },
      [CE.dataschema]: {
        type: 'string',
        pattern: `^${escape(majorOf(dataschema))}`,
        description: `The \`$id\` of the value's JSON Schema, which names its version (today \`${dataschema}\`; any version of the same major).`,
      },
      [CE.contentType]: { type: 'string', const: JSON_CONTENT_TYPE },
    },
  };
}
