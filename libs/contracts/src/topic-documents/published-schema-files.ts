import type { JsonSchema } from '../kafka/json-schema';
import type { TopicContract } from '../kafka/kafka-topics';
import { KAFKA_TOPICS } from './all-topics';

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
