import type { JsonSchema } from './json-schema';

/** A schema file's text: stable, so the committed file and the code compare byte for byte. */
export function schemaFileText(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
