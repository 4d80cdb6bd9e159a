import type { JsonSchema, JsonType } from './json-schema';

/** Keywords that describe and do not constrain. */
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'examples']);
const COMPARED = new Set([
  'type', 'enum', 'const', 'pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems',
  'required', 'properties', 'additionalProperties', 'items', 'allOf',
]);

type Value = string | number | null;

/**
 * Where a value the `narrower` schema accepts could be refused by the `wider` one (empty: none).
 * A produced message's new schema must be narrower than its published one (consumers written
 * against it keep working); a consumed message's new schema must be wider (producers keep
 * working). Covers the keywords our message schemas use; any other difference is reported.
 *
 * One assumption, the rule that makes adding an optional field compatible: a property a schema
 * does not declare is not sent, even where `additionalProperties` would allow it.
 */
export function acceptanceGaps(narrower: JsonSchema, wider: JsonSchema, path = '(value)'): string[] {
  const gaps: string[] = [];
  const gap = (text: string) => gaps.push(`${path}: ${text}`);
  for (const keyword of new Set([...Object.keys(narrower), ...Object.keys(wider)])) {
    if (!ANNOTATIONS.has(keyword) && !COMPARED.has(keyword)) gap(`'${keyword}' cannot be compared`);
  }

  const types1 = typesOf(narrower);
  const types2 = typesOf(wider);
  if (types2 && (!types1 || types1.some((t) => !types2.includes(t) && !(t === 'integer' && types2.includes('number'))))) {
    gap(`type ${JSON.stringify(types1 ?? 'any')} is not within ${JSON.stringify(types2)}`);
  }
  const values1 = valuesOf(narrower);
  const values2 = valuesOf(wider);
  if (values2 && (!values1 || values1.some((v) => !values2.includes(v)))) gap(`values ${JSON.stringify(values1 ?? 'any')} are not within ${JSON.stringify(values2)}`);
  if (wider.pattern !== undefined && narrower.pattern !== wider.pattern) {
    const pattern = new RegExp(wider.pattern, 'u');
    if (!values1 || values1.some((v) => typeof v !== 'string' || !pattern.test(v))) gap(`pattern ${JSON.stringify(narrower.pattern ?? 'none')} differs from ${JSON.stringify(wider.pattern)}`);
  }
  if (wider.format !== undefined && narrower.format !== wider.format) gap(`format ${JSON.stringify(narrower.format ?? 'none')} differs from ${JSON.stringify(wider.format)}`);
  for (const keyword of ['minLength', 'minimum', 'minItems'] as const) {
    const bound = wider[keyword];
    if (bound !== undefined && !((narrower[keyword] ?? -Infinity) >= bound)) gap(`${keyword} ${narrower[keyword] ?? 'none'} is below ${bound}`);
  }
  for (const keyword of ['maxLength', 'maximum'] as const) {
    const bound = wider[keyword];
    if (bound !== undefined && !((narrower[keyword] ?? Infinity) <= bound)) gap(`${keyword} ${narrower[keyword] ?? 'none'} is above ${bound}`);
  }

  const required1 = new Set(narrower.required ?? []);
  for (const name of wider.required ?? []) if (!required1.has(name)) gap(`'${name}' is required by one and not the other`);
  for (const [name, schema2] of Object.entries(wider.properties ?? {})) {
    const schema1 = narrower.properties?.[name];
    if (schema1) gaps.push(...acceptanceGaps(schema1, schema2, `${path}.${name}`));
  }
  if (wider.additionalProperties === false) {
    for (const name of Object.keys(narrower.properties ?? {})) if (!wider.properties?.[name]) gap(`'${name}' is not allowed`);
    if (narrower.additionalProperties !== false) gap('other properties are not allowed');
  }
  if (wider.items) gaps.push(...acceptanceGaps(narrower.items ?? {}, wider.items, `${path}[]`));
  gaps.push(...conditionalGaps(narrower, wider, path));
  return gaps;
}

/** The `allOf` of `if type is T then data is D` branches (json-schema.ts, `dataByType`). */
function conditionalGaps(narrower: JsonSchema, wider: JsonSchema, path: string): string[] {
  const branches1 = branchesOf(narrower);
  const branches2 = branchesOf(wider);
  if (!branches1 || !branches2) return [`${path}: 'allOf' is not a list of if/then branches`];
  const base1 = withoutAllOf(narrower);
  const base2 = withoutAllOf(wider);
  const gaps: string[] = [];
  for (const key of new Set([...branches1.keys(), ...branches2.keys()])) {
    // Values of this branch meet the base schema and the branch's `then`, on each side.
    const effective1 = merge(base1, branches1.get(key) ?? {});
    const effective2 = merge(base2, branches2.get(key) ?? {});
    gaps.push(...acceptanceGaps(effective1, effective2, `${path} (if ${key})`));
  }
  return gaps;
}

function branchesOf(schema: JsonSchema): Map<string, JsonSchema> | null {
  const branches = new Map<string, JsonSchema>();
  for (const entry of schema.allOf ?? []) {
    if (!entry.if || !entry.then || Object.keys(entry).length !== 2) return null;
    branches.set(JSON.stringify(entry.if), entry.then);
  }
  return branches;
}

function withoutAllOf(schema: JsonSchema): JsonSchema {
  const { allOf: _allOf, ...rest } = schema;
  return rest;
}

/** Both schemas' constraints in one (required lists joined, properties merged, `b` wins otherwise). */
function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...a.properties };
  for (const [name, schema] of Object.entries(b.properties ?? {})) properties[name] = properties[name] ? merge(properties[name], schema) : schema;
  const required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  return { ...a, ...b, ...(Object.keys(properties).length > 0 ? { properties } : {}), ...(required.length > 0 ? { required } : {}) };
}

function typesOf(schema: JsonSchema): JsonType[] | null {
  if (schema.type === undefined) return null;
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function valuesOf(schema: JsonSchema): Value[] | null {
  if (schema.const !== undefined) return [schema.const];
  return schema.enum ?? null;
}
