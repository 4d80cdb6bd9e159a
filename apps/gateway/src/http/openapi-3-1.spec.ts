import type { OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-3-1';

const schemaOf = (property: object) =>
  (toOpenApi31({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { S: { type: 'object', properties: { p: property } } } } } as OpenAPIObject)
    .components?.schemas?.S as { properties: { p: object } }).properties.p;

describe('OpenAPI 3.0 → 3.1: nullable', () => {
  it('makes a nullable scalar a type list', () => {
    expect(schemaOf({ type: 'string', nullable: true, example: 'x' })).toEqual({ type: ['string', 'null'], example: 'x' });
  });

  it('makes a nullable enum the enum or null, keeping its description outside', () => {
    expect(schemaOf({ type: 'string', enum: ['a', 'b'], nullable: true, description: 'd' })).toEqual({ description: 'd', anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] });
  });

  it('makes a nullable model (allOf a $ref, with or without the generator\'s type: object) the $ref or null', () => {
    const ref = { $ref: '#/components/schemas/M' };
    expect(schemaOf({ allOf: [ref], nullable: true })).toEqual({ anyOf: [ref, { type: 'null' }] });
    expect(schemaOf({ type: 'object', allOf: [ref], nullable: true, description: 'd' })).toEqual({ description: 'd', anyOf: [ref, { type: 'null' }] });
    const two = { allOf: [ref, { $ref: '#/components/schemas/N' }] };
    expect(schemaOf({ ...two, nullable: true })).toEqual({ anyOf: [two, { type: 'null' }] });
  });

  it('leaves what is not nullable as it was, without nullable: false', () => {
    expect(schemaOf({ type: 'integer', nullable: false })).toEqual({ type: 'integer' });
  });
});
