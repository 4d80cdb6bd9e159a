import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ReferenceObject, ResponsesObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { API_VERSION } from '@tailsync/contracts';
import { ProblemView } from '../problems/problem.view';

const PROBLEM_REF = { $ref: `#/components/schemas/${ProblemView.name}` };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Answers every route can give because of the HTTP pipeline in front of it rather than its
 * handler: the body parsers (configure-http), the bearer guard and the rate limiter. They are
 * added here once, so each controller documents only its own outcomes.
 */
const PIPELINE_ANSWERS: { status: string; description: string; applies: (path: string, op: OperationObject) => boolean }[] = [
  { status: '400', description: 'Malformed JSON, or validation failed (the validation object).', applies: (_p, op) => !!op.requestBody },
  { status: '413', description: 'The body is larger than BODY_LIMIT.', applies: (_p, op) => !!op.requestBody },
  { status: '415', description: 'The body is not JSON.', applies: (_p, op) => !!op.requestBody },
  { status: '401', description: 'A valid access token is required.', applies: (_p, op) => (op.security ?? []).length > 0 },
  { status: '429', description: 'Rate limit reached; Retry-After gives the seconds to wait.', applies: (path) => !path.startsWith('/health/') && path !== '/metrics' },
];

/** The OpenAPI document served at /openapi.json, generated from the controllers and DTOs. */
export function openApiDocument(app: INestApplication, publicBaseUrl: string): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('tailsync')
      .setDescription('Keeps integrated applications\' aircraft tails in step and notifies them by signed webhook.')
      .setVersion(API_VERSION)
      .addBearerAuth()
      .addServer(publicBaseUrl)
      .build(),
    { extraModels: [ProblemView] },
  );
  completeOperations(document);
  return document;
}

/**
 * Adds the pipeline's answers, gives every error response the problem body's schema and media
 * type, and closes the request bodies' schemas: the validation pipe refuses unknown fields
 * (`forbidNonWhitelisted`), so a body schema allows no other properties.
 */
export function completeOperations(document: OpenAPIObject): void {
  const bodySchemas = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const responses: ResponsesObject = (op.responses ??= {});
      for (const answer of PIPELINE_ANSWERS) {
        if (answer.applies(path, op) && !responses[answer.status]) responses[answer.status] = { description: answer.description };
      }
      for (const [status, response] of Object.entries(responses)) {
        if (response && Number(status) >= 400 && !('$ref' in response)) response.content = { 'application/problem+json': { schema: PROBLEM_REF } };
      }
      // Only JSON-only bodies are DTOs the pipe validates: /oauth/token also takes a form, and
      // ignores parameters it does not know (RFC 6749 §3.2).
      const content = op.requestBody && !('$ref' in op.requestBody) ? op.requestBody.content : {};
      const body = Object.keys(content).join() === 'application/json' ? content['application/json'].schema : undefined;
      if (body) collectRefs(body, document, bodySchemas);
    }
  }
  for (const name of bodySchemas) {
    const schema = document.components?.schemas?.[name];
    if (schema && !('$ref' in schema)) schema.additionalProperties = false;
  }
}

/** Names of the component schemas `schema` refers to, directly or through properties and items. */
function collectRefs(schema: SchemaObject | ReferenceObject, document: OpenAPIObject, into: Set<string>): void {
  if ('$ref' in schema) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    if (into.has(name)) return;
    into.add(name);
    const target = document.components?.schemas?.[name];
    if (target) collectRefs(target, document, into);
    return;
  }
  for (const property of Object.values(schema.properties ?? {})) collectRefs(property, document, into);
  if (schema.items) collectRefs(schema.items, document, into);
}
