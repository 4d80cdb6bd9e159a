import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;

/**
 * Turns the OpenAPI 3.0 document @nestjs/swagger generates into OpenAPI 3.1: schemas are JSON
 * Schema 2020-12 there, so `nullable: true` becomes a `null` type (or a `null` branch beside a
 * `$ref`, which needs no allOf around it any more). Nothing else the generator emits differs
 * between the two versions.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const converted = rewrite(document) as OpenAPIObject;
  converted.openapi = '3.1.0';
  return converted;
}

function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewrite);
  if (typeof value !== 'object' || value === null) return value;
  const object: Json = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
  if (object.nullable !== true) {
    if (object.nullable === false) delete object.nullable;
    return object;
  }
  delete object.nullable;
  const composite = ['$ref', 'allOf', 'oneOf', 'anyOf'].some((key) => key in object);
  if (typeof object.type === 'string' && !Array.isArray(object.enum) && !composite) {
    object.type = [object.type, 'null'];
    return object;
  }
  // an enum, a `$ref` (or allOf/oneOf) with nullable: the value is that schema or null, which
  // generated clients read as an optional enum or model
  const { description, ...schema } = object;
  // @nestjs/swagger 11.4 writes `type: object` beside a nullable allOf; in the first branch it would
  // refuse nothing, and beside the anyOf it would refuse the null
  if (composite) delete schema.type;
  // an allOf of one $ref is that $ref (3.1 allows a $ref beside other keywords, so no wrapper)
  const only = Array.isArray(schema.allOf) && schema.allOf.length === 1 && Object.keys(schema).length === 1 ? (schema.allOf[0] as Json) : undefined;
  if (only && typeof only.$ref === 'string') return { ...(description === undefined ? {} : { description }), anyOf: [only, { type: 'null' }] };
  return { ...(description === undefined ? {} : { description }), anyOf: [schema, { type: 'null' }] };
}
