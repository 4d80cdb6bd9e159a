/**
 * The optional properties of a tail (docs/contract.md, "Tails"), one row each.
 * Everything that names them derives from this table: the gateway's validation and OpenAPI
 * schemas, the views and submissions (`TailProperties`), tail-sync's events and read model
 * columns, and the `TailCreated` data of the Kafka schema. How to add one: docs/extending.md.
 */

/** What a property holds, and the bounds the gateway checks; each kind is one set of rules and messages. */
export type TailPropertyValue =
  | { kind: 'text'; maxLength: number }
  | { kind: 'country-code' }
  | { kind: 'integer'; minimum: number; maximum: number };

export interface TailPropertyDefinition {
  /** The key in requests, views and events; its snake_case is the gRPC field (proto-loader camel-cases it back). */
  name: string;
  /** How a problem message names it: "<label> must be …". */
  label: string;
  value: TailPropertyValue;
  /** Its column in tail-sync's read model (`<prefix>tails`); a migration adds it. */
  column: string;
  /** The OpenAPI document's example of the property, if it shows one. */
  example?: string | number;
}

/** In the order requests, views, events and columns list them. */
export const TAIL_PROPERTIES = [
  { name: 'registrationNumber', label: 'Registration number', value: { kind: 'text', maxLength: 50 }, column: 'registration_number' },
  { name: 'icaoTypeName', label: 'ICAO type name', value: { kind: 'text', maxLength: 100 }, column: 'icao_type_name', example: 'B738' },
  { name: 'vendorTypeName', label: 'Vendor type name', value: { kind: 'text', maxLength: 100 }, column: 'vendor_type_name' },
  { name: 'countryCode', label: 'Country code', value: { kind: 'country-code' }, column: 'country_code', example: 'US' },
  { name: 'passengerSeating', label: 'Passenger seating', value: { kind: 'integer', minimum: 0, maximum: 1000 }, column: 'passenger_seating' },
] as const satisfies readonly TailPropertyDefinition[];

/** How each kind of value is typed where it is stored or sent (JSON Schema, PostgreSQL, protobuf). */
export const TAIL_PROPERTY_KINDS = {
  text: { json: 'string', sql: 'text', proto: 'string' },
  'country-code': { json: 'string', sql: 'text', proto: 'string' },
  integer: { json: 'integer', sql: 'int', proto: 'int32' },
} as const satisfies Record<TailPropertyValue['kind'], { json: 'string' | 'integer'; sql: string; proto: string }>;

type TailPropertyRow = (typeof TAIL_PROPERTIES)[number];
type ValueOf<K extends TailPropertyValue['kind']> = (typeof TAIL_PROPERTY_KINDS)[K]['json'] extends 'integer' ? number : string;

export type TailPropertyName = TailPropertyRow['name'];

/** A tail's optional properties, every key present: absent values are `null` (views, events, state). */
export type TailProperties = { [P in TailPropertyRow as P['name']]: ValueOf<P['value']['kind']> | null };

/** The same properties as submitted: any of them may be missing or `null`. */
export type TailPropertiesInput = { [K in TailPropertyName]?: TailProperties[K] | null | undefined };

export const TAIL_PROPERTY_NAMES: readonly TailPropertyName[] = TAIL_PROPERTIES.map((p) => p.name);

/** Every property key present, in the table's order, `undefined` turned into `null`; other keys of `input` left out. */
export function normalizeTailProperties(input: TailPropertiesInput | undefined): TailProperties {
  const properties: Partial<Record<TailPropertyName, unknown>> = {};
  for (const name of TAIL_PROPERTY_NAMES) properties[name] = input?.[name] ?? null;
  return properties as TailProperties;
}
