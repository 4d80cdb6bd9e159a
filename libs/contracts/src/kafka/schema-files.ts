import type { JsonSchema } from './json-schema';
import { KAFKA_TOPICS, type TopicContract } from './kafka-topics';

/** Where the schemas are committed, relative to the repository root. */
export const SCHEMAS_DIR = 'libs/contracts/schemas';

export interface SchemaFile {
  /** Relative to {@link SCHEMAS_DIR}: `<message>/<version>.json`, `<message>/<version>.headers.json`. */
  path: string;
  message: string;
  version: string;
  schema: JsonSchema;
  topic: TopicContract;
}

/** The schema files of the current versions, as the code defines them. */
export function currentSchemaFiles(topics: readonly TopicContract[] = KAFKA_TOPICS): SchemaFile[] {
  return topics.flatMap((topic) => {
    const { name, version, payload, headers } = topic.message;
    const files: SchemaFile[] = [{ path: `${name}/${version}.json`, message: name, version, schema: payload, topic }];
    if (headers) files.push({ path: `${name}/${version}.headers.json`, message: `${name}.headers`, version, schema: headers, topic });
    return files;
  });
}

/** A schema file's text: stable, so the committed file and the code compare byte for byte. */
export function schemaFileText(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
