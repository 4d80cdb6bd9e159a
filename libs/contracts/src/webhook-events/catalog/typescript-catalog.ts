import type { JsonSchema, JsonType } from '../../kafka/json-schema';
import { callbackDataSchema, callbackDataSchemaName, callbackSchema, callbackSchemaName } from '../callback-schema';
import type { WebhookEventType } from '../webhook-event-type';
import { schemaProperties, schemaTypes } from './schema-subset';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSDoc comment, or nothing without a description. */
function doc(description: string | undefined, indent: string): string {
  return description ? `${indent}/** ${description.replace(/\*\//g, '*\\/')} */\n` : '';
}

/** The TypeScript type of a schema; `named` schemas (by identity) are referred to by their name. */
function tsType(schema: JsonSchema, named: Map<JsonSchema, string>, indent: string, where: string): string {
  const name = named.get(schema);
  if (name) return name;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const types = schemaTypes(schema, where);
  if (types.length === 0) return 'unknown';
  return types.map((type) => tsTypeOf(type, schema, named, indent, where)).join(' | ');
}

function tsTypeOf(type: JsonType, schema: JsonSchema, named: Map<JsonSchema, string>, indent: string, where: string): string {
  switch (type) {
    case 'string':
    case 'boolean':
    case 'null':
      return type;
    case 'integer':
    case 'number':
      return 'number';
    case 'array':
      return schema.items ? `Array<${tsType(schema.items, named, indent, `${where}[]`)}>` : 'unknown[]';
    case 'object':
      return objectType(schema, named, indent, where);
  }
}

/**
 * An object literal type. An index signature only where the schema says other members are
 * allowed and lists none (an open `data`), or types them: listed members stay checked by name.
 */
function objectType(schema: JsonSchema, named: Map<JsonSchema, string>, indent: string, where: string): string {
  const inner = `${indent}  `;
  const members = schemaProperties(schema).map(({ name, schema: property, required }) =>
    `${doc(property.description, inner)}${inner}${IDENTIFIER.test(name) ? name : JSON.stringify(name)}${required ? '' : '?'}: ${tsType(property, named, inner, `${where}.${name}`)};\n`);
  const extra = schema.additionalProperties;
  if (typeof extra === 'object') members.push(`${inner}[key: string]: ${tsType(extra, named, inner, `${where}[*]`)};\n`);
  else if (extra !== false && members.length === 0) members.push(`${inner}[key: string]: unknown;\n`);
  return members.length === 0 ? 'Record<string, never>' : `{\n${members.join('')}${indent}}`;
}

/**
 * The npm package's event catalog (`libs/webhook-signing/src/events.ts`): per event type its
 * callback body and `data`, and `TailsyncEvent`, their union discriminated by `eventName`. Types
 * only, so the package's CommonJS and ES builds carry the same declarations and no code.
 */
export function typescriptCatalog(types: readonly WebhookEventType[], generatedBy: string): string {
  const declarations = types.map((type) => {
    const data = callbackDataSchema(type);
    const callback = callbackSchema(type);
    const dataName = callbackDataSchemaName(type);
    return [
      `${doc(data.description, '')}export type ${dataName} = ${tsType(data, new Map(), '', dataName)};\n`,
      `${doc(callback.description, '')}export interface ${callbackSchemaName(type)} ${tsType(callback, new Map([[data, dataName]]), '', callbackSchemaName(type))}\n`,
    ].join('\n');
  });
  const union = types.map((type) => `\n  | ${callbackSchemaName(type)}`).join('');
  return [
    `// ${generatedBy}\n`,
    ...declarations,
    `/**\n * Every callback body a subscription may receive, told apart by \`eventName\`: \`const { eventName } = event\`,\n * then \`switch (eventName)\` narrows it to one type. Cast a payload to it once verified (a Test call's body is\n * whatever it echoes).\n */\nexport type TailsyncEvent =${union};\n`,
    '/** The event names, as subscriptions list them in `eventNames`. */\nexport type TailsyncEventName = TailsyncEvent[\'eventName\'];\n',
    '/** The callback body of one event type: `TailsyncEventOf<\'Product.RiskAssessmentExecuted\'>`. */\nexport type TailsyncEventOf<Name extends TailsyncEventName> = Extract<TailsyncEvent, { eventName: Name }>;\n',
  ].join('\n');
}
