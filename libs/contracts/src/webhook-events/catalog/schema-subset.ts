import type { JsonSchema, JsonType } from '../../kafka/json-schema';

/**
 * What the catalog generators read of a JSON Schema. They turn types, `const`, `enum`,
 * `properties`/`required`, `additionalProperties` and `items` into types; a keyword that changes
 * what is valid in another way (`allOf`, `if`…) is refused, so a data schema never gets a type
 * looser than it says without anyone noticing.
 */
const CONDITIONAL_KEYWORDS = ['allOf', 'if', 'then'] as const;

export function schemaTypes(schema: JsonSchema, where: string): JsonType[] {
  const unsupported = CONDITIONAL_KEYWORDS.filter((keyword) => schema[keyword] !== undefined);
  if (unsupported.length > 0) throw new Error(`${where}: the webhook event catalog has no type for \`${unsupported.join('`, `')}\`; narrow \`data\` with properties, enum or const`);
  if (schema.type !== undefined) return Array.isArray(schema.type) ? schema.type : [schema.type];
  return schema.properties ? ['object'] : [];
}

/** The object's properties in schema order, with whether each is required. */
export function schemaProperties(schema: JsonSchema): { name: string; schema: JsonSchema; required: boolean }[] {
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({ name, schema: property, required: (schema.required ?? []).includes(name) }));
}

/** `RiskAssessmentExecuted` + `tail-number` → `RiskAssessmentExecutedTailNumber`: names of nested objects. */
export function nestedName(parent: string, property: string): string {
  return parent + property.split(/[^A-Za-z0-9]+/).filter(Boolean).map((part) => part[0].toUpperCase() + part.slice(1)).join('');
}
