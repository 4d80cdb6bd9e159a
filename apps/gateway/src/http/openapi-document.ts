import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ReferenceObject, ResponsesObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { API_VERSION } from '@tailsync/contracts';
import { ProblemView } from '../problems/interface/problem.view';
import { toOpenApi31 } from './openapi-3-1';
import { SCHEMA_EXAMPLES } from './openapi-examples';
import { OPERATIONS } from './openapi-operations';
import { CALLBACK_SCHEMAS, CALLBACK_SECURITY_SCHEMES, WEBHOOKS } from './openapi-webhooks';

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

/**
 * The OpenAPI 3.1 document served at /openapi.json, generated from the controllers and DTOs, with
 * a stable id and a summary per operation, OAuth2 client credentials as the service accounts'
 * security scheme, and the callback integrators receive under `webhooks`.
 */
export function openApiDocument(app: INestApplication, publicBaseUrl: string): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('tailsync')
      .setDescription('Keeps integrated applications\' aircraft tails in step and notifies them by signed webhook.')
      .setVersion(API_VERSION)
      .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
      .addServer(publicBaseUrl)
      .build(),
    { extraModels: [ProblemView] },
  );
  completeOperations(document);
  nameOperations(document);
  secureOperations(document, publicBaseUrl);
  const schemas = Object.assign((document.components ??= {}).schemas ??= {}, CALLBACK_SCHEMAS);
  for (const [name, example] of Object.entries(SCHEMA_EXAMPLES)) {
    const schema = schemas[name];
    if (!schema || '$ref' in schema) throw new Error(`openapi-examples.ts has an example of ${name}, which is no schema of the document`);
    (schema as { examples?: unknown[] }).examples = [example];
  }
  return { ...toOpenApi31(document), webhooks: WEBHOOKS } as OpenAPIObject;
}

/** Every operation's id and summary from OPERATIONS; a sentence the controller gave moves to its description. */
function nameOperations(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const named = OPERATIONS[`${method.toUpperCase()} ${path}`];
      if (!named) throw new Error(`openapi-operations.ts names no operation ${method.toUpperCase()} ${path}`);
      if (op.summary && !op.description) op.description = op.summary;
      Object.assign(op, named);
    }
  }
}

/**
 * Service accounts authenticate with OAuth2 client credentials (a bearer access token from
 * /oauth/token); the admin API with the operators' ADMIN_TOKEN as a bearer token.
 */
function secureOperations(document: OpenAPIObject, publicBaseUrl: string): void {
  (document.components ??= {}).securitySchemes = {
    oauth2: {
      type: 'oauth2',
      description: 'A service account\'s access token: POST /oauth/token with its client id and secret, then `Authorization: Bearer <access_token>`.',
      flows: { clientCredentials: { tokenUrl: `${publicBaseUrl}/oauth/token`, scopes: {} } },
    },
    adminToken: { type: 'http', scheme: 'bearer', description: 'The operators\' ADMIN_TOKEN (admin API only).' },
    ...CALLBACK_SECURITY_SCHEMES,
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      // A public operation says so (`security: []`): generated clients then send no token there.
      op.security = op.security?.length ? [path.startsWith('/admin/') ? { adminToken: [] } : { oauth2: [] }] : [];
      // OpenAPI ignores an Authorization header parameter; /oauth/token's (HTTP Basic client
      // credentials, RFC 6749 §2.3.1) is said in words, as a security scheme would make clients require it
      const isAuthorization = (p: (typeof op.parameters & object)[number]) => 'name' in p && p.in === 'header' && p.name.toLowerCase() === 'authorization';
      if (op.parameters?.some(isAuthorization)) {
        op.parameters = op.parameters.filter((p) => !isAuthorization(p));
        op.description = [op.description, 'The client id and secret may instead come in HTTP Basic (`Authorization: Basic …`).'].filter(Boolean).join(' ');
      }
    }
  }
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
