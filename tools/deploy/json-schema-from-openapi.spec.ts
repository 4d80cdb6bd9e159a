import { kindSchema, schemaFileName, strictJsonSchema, type OpenApiSchema } from './json-schema-from-openapi';

const components: Record<string, OpenApiSchema> = {
  Meta: { type: 'object', description: 'dropped', properties: { name: { type: 'string', format: 'dns' } } },
  Port: { 'x-kubernetes-int-or-string': true },
  Props: { type: 'object', properties: { not: { $ref: '#/components/schemas/Props' } } },
};
const resolve = (ref: string) => components[ref.replace('#/components/schemas/', '')];

describe("kubeconform's schemas from OpenAPI v3", () => {
  it('resolves references in place, closes objects that list their properties, and keeps only what validates', () => {
    const schema = strictJsonSchema(
      { type: 'object', properties: { metadata: { allOf: [{ $ref: '#/components/schemas/Meta' }], default: {} }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
      resolve,
    );
    expect(schema).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        metadata: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
    });
  });

  it('spells int-or-string and nullable in JSON Schema, leaves preserved-unknown objects open, and stops at a type that contains itself', () => {
    expect(strictJsonSchema({ $ref: '#/components/schemas/Port' }, resolve)).toEqual({ oneOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(strictJsonSchema({ type: 'string', nullable: true }, resolve)).toEqual({ type: ['string', 'null'] });
    expect(strictJsonSchema({ type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-preserve-unknown-fields': true }, resolve)).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(strictJsonSchema({ $ref: '#/components/schemas/Props' }, resolve)).toEqual({ type: 'object', additionalProperties: false, properties: { not: {} } });
  });

  it("pins apiVersion and kind, and names the file as kubeconform looks it up", () => {
    expect(kindSchema({ type: 'object', properties: {} }, 'apps/v1', 'Deployment').properties).toEqual({ apiVersion: { type: 'string', enum: ['apps/v1'] }, kind: { type: 'string', enum: ['Deployment'] } });
    expect(schemaFileName('apps/v1', 'Deployment')).toBe('deployment-apps-v1.json');
    expect(schemaFileName('v1', 'Service')).toBe('service-v1.json');
    expect(schemaFileName('networking.k8s.io/v1', 'NetworkPolicy')).toBe('networkpolicy-networking-v1.json');
    expect(schemaFileName('monitoring.coreos.com/v1', 'ServiceMonitor')).toBe('servicemonitor-monitoring-v1.json');
  });
});
