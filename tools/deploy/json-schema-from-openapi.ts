/**
 * One object kind's OpenAPI v3 schema (a Kubernetes release's documents, or a CRD's
 * openAPIV3Schema) as the standalone, strict JSON Schema kubeconform reads: every `$ref` resolved
 * in place, `additionalProperties: false` on every object that lists its properties (so a
 * misspelt field fails), int-or-string and nullable spelled in JSON Schema, and nothing that does
 * not validate (descriptions, defaults, formats, Kubernetes' extensions) kept.
 */

export type OpenApiSchema = Record<string, unknown>;

/** The keys that validate; the rest (description, default, format, x-kubernetes-*) are dropped. */
const KEPT = new Set(['type', 'properties', 'items', 'required', 'enum', 'additionalProperties', 'oneOf', 'anyOf', 'allOf', 'not', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'uniqueItems']);

export function strictJsonSchema(schema: OpenApiSchema, resolve: (ref: string) => OpenApiSchema, seen: string[] = []): OpenApiSchema {
  const ref = schema.$ref as string | undefined;
  if (ref) {
    // A type that contains itself (JSONSchemaProps) is left open below its first level.
    if (seen.includes(ref)) return {};
    return strictJsonSchema(resolve(ref), resolve, [...seen, ref]);
  }
  // OpenAPI v3 wraps a reference that carries a default: `allOf: [{ $ref }]`.
  const allOf = schema.allOf as OpenApiSchema[] | undefined;
  if (allOf?.length === 1 && !schema.properties && !schema.type) return strictJsonSchema(allOf[0], resolve, seen);

  const out: OpenApiSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEPT.has(key)) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, OpenApiSchema>).map(([name, property]) => [name, strictJsonSchema(property, resolve, seen)]));
    } else if (key === 'items' || key === 'not' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = strictJsonSchema(value as OpenApiSchema, resolve, seen);
    } else if (key === 'oneOf' || key === 'anyOf' || key === 'allOf') {
      out[key] = (value as OpenApiSchema[]).map((member) => strictJsonSchema(member, resolve, seen));
    } else {
      out[key] = value;
    }
  }
  if (schema['x-kubernetes-int-or-string'] === true && !out.oneOf && !out.anyOf) {
    delete out.type;
    out.oneOf = [{ type: 'string' }, { type: 'integer' }];
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  const open = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (out.properties && out.additionalProperties === undefined && !open) out.additionalProperties = false;
  return out;
}

/** The schema of an object kind, with its apiVersion and kind pinned to the one it describes. */
export function kindSchema(schema: OpenApiSchema, apiVersion: string, kind: string): OpenApiSchema {
  const properties = { ...(schema.properties as Record<string, OpenApiSchema>) };
  properties.apiVersion = { type: 'string', enum: [apiVersion] };
  properties.kind = { type: 'string', enum: [kind] };
  return { ...schema, properties };
}

/** kubeconform's file name for a kind: `{kind}-{group's first label}-{version}.json`, lower case. */
export function schemaFileName(apiVersion: string, kind: string): string {
  const [groupOrVersion, version] = apiVersion.split('/');
  const suffix = version ? `-${groupOrVersion.split('.')[0]}-${version}` : `-${groupOrVersion}`;
  return `${kind}${suffix}.json`.toLowerCase();
}
