import { callbackDataSchema, callbackDataSchemaName, callbackSchema, callbackSchemaName, EXAMPLE_CALLBACK_EVENT_ID, WEBHOOK_EVENT_NAMES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@tailsync/contracts';
import { TEST_WEBHOOK_ID_PREFIX, TOKEN_TTL_SECONDS, WEBHOOK_ISSUER, WEBHOOK_USER_AGENT } from '@tailsync/webhooks';

/**
 * The callback body of an event type as the catalog's JSON Schema has it (docs/api/webhook-events/),
 * its `data` a component of its own so generated clients name the type. `$schema` and `$id` stay
 * out: a component is a part of this document, not a resource of its own.
 */
function callbackComponents(type: WebhookEventType): Record<string, object> {
  const { $schema: _schema, $id: _id, ...body } = callbackSchema(type);
  return {
    [callbackSchemaName(type)]: {
      ...body,
      description: `${body.description} A Test call's body is the \`payloadToEcho\` it was sent with instead.`,
      properties: { ...body.properties, data: { $ref: `#/components/schemas/${callbackDataSchemaName(type)}` } },
    },
    [callbackDataSchemaName(type)]: callbackDataSchema(type),
  };
}

/** The callback bodies of the registry's event types and the claims of the token every callback carries. */
export const CALLBACK_SCHEMAS = {
  ...Object.assign({}, ...WEBHOOK_EVENT_TYPES.map(callbackComponents)),
  WebhookTokenClaims: {
    type: 'object',
    description: `Claims of the JWT in \`Authorization: Token <JWT>\`: HS256, keyed by the UTF-8 bytes of the shared secret (its header's \`kid\` names the secret), or with \`signatureScheme: "ed25519"\` EdDSA by the domain's Ed25519 key (its \`kid\` names the key in \`GET /.well-known/webhooks/jwks.json?domain=<domain>\`).`,
    required: ['payloadHash', 'iat', 'exp', 'jti', 'iss', 'sub', 'evt'],
    properties: {
      payloadHash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Lowercase hex SHA-256 of the exact body bytes.' },
      iat: { type: 'integer', description: 'Issued at (Unix seconds); equals Webhook-Timestamp.' },
      exp: { type: 'integer', description: `iat + ${TOKEN_TTL_SECONDS}.` },
      jti: { type: 'string', format: 'uuid', description: 'Unique per attempt.' },
      iss: { type: 'string', const: WEBHOOK_ISSUER },
      sub: { type: 'string', description: 'Your domain.' },
      evt: { type: 'string', enum: WEBHOOK_EVENT_NAMES },
      test: { type: 'boolean', const: true, description: 'Present on a Test call only.' },
    },
  },
} as const;

/**
 * How a callback proves it comes from us, as a security scheme of the webhooks (the receiver checks
 * it; the receiver packages do): the token of the `Authorization` header.
 */
export const CALLBACK_SECURITY_SCHEMES = {
  webhookToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: '`Token <JWT>` signed with the subscription\'s shared secret (HS256) or the domain\'s Ed25519 key (EdDSA), its claims (WebhookTokenClaims) binding the body by its SHA-256; the Standard Webhooks headers sign the same body.',
  },
} as const;

const header = (name: string, description: string, schema: Record<string, unknown>, example: string) => ({ name, in: 'header', required: true, description, schema, example });

/**
 * The callback an integrator's subscription URL receives for an event type, as an OpenAPI 3.1
 * webhook: its headers (the JWT and the Standard Webhooks signature), its body and what each answer
 * makes us do.
 */
const webhookOf = (type: WebhookEventType) => ({
  post: {
    operationId: type.callback.operationId,
    summary: type.callback.summary,
    description: [
      'Verify before use (the receiver packages npm `@tailsync/webhooks` and PyPI `tailsync-webhooks` do): the JWT of the `Authorization` header with the SHA-256 of the raw body (`payloadHash`), or the Standard Webhooks signature (`whsec_` + base64 of the secret). While a rotated secret\'s grace period lasts, `webhook-signature` lists one signature per secret, the current one first.',
      'With `signatureScheme: "ed25519"` no secret is shared: the JWT is EdDSA and `webhook-signature` is `v1a,<base64 Ed25519 signature>`, both by the domain\'s key; verify them with the public keys of `GET /.well-known/webhooks/jwks.json?domain=<domain>` (the JWT\'s `kid` names the key).',
      `A Test call (\`POST /WebhookSubscriptions/Test\`) has a \`webhook-id\` starting \`${TEST_WEBHOOK_ID_PREFIX}\`, \`test: true\` in its JWT and the \`payloadToEcho\` as its body; the receiver packages refuse it unless told to accept test calls.`,
      'Delivery is at least once: dedupe on `webhook-id`.',
    ].join('\n\n'),
    tags: ['Webhook callbacks'],
    security: [{ webhookToken: [] }],
    parameters: [
      header('Authorization', '`Token <JWT>`; see WebhookTokenClaims.', { type: 'string', pattern: '^Token [A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' }, 'Token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IjM3NGQ3NmNlNjExN2JiZWMifQ.eyJwYXlsb2FkSGFzaCI6Ii4uLiJ9.c2lnbmF0dXJl'),
      header('User-Agent', 'Always this value.', { type: 'string', const: WEBHOOK_USER_AGENT }, WEBHOOK_USER_AGENT),
      header('Webhook-Id', `The event id, the same on every attempt (\`${TEST_WEBHOOK_ID_PREFIX}<uuid>\` on a Test call).`, { type: 'string' }, EXAMPLE_CALLBACK_EVENT_ID),
      header('Webhook-Attempt', '1, 2, … (continuing across a redelivery).', { type: 'string', pattern: '^[1-9][0-9]*$' }, '1'),
      header('Webhook-Timestamp', 'Unix seconds of the attempt; the JWT\'s iat.', { type: 'string', pattern: '^[0-9]+$' }, '1767225600'),
      header('Webhook-Signature', 'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, the current secret\'s first; with `signatureScheme: "ed25519"`, `v1a,<base64 Ed25519 signature of the same text>` by the domain key.', { type: 'string', pattern: '^v1a?,[A-Za-z0-9+/]+=*( v1a?,[A-Za-z0-9+/]+=*)*$' }, 'v1,xUuu5aO8Q6Y/Oi+q3W6ZkSgw0uaQ2m0hZ4uE2GJtWxk='),
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${callbackSchemaName(type)}` } } },
    },
    responses: {
      '2XX': { description: 'Accepted: the delivery is done.' },
      '410': { description: 'Gone: the delivery fails and the subscription is disabled until it is saved again or enabled (a Test call changes nothing).' },
      '429': { description: 'Retried; a `Retry-After` (seconds or HTTP-date) delays the next attempt (at most 256 s by default).' },
      '503': { description: 'Retried, like every 5xx, 408 and a time-out (10 s); `Retry-After` is honoured as for 429.' },
      default: { description: 'Any other status (a 4xx such as 401 from a failed verification, a 3xx) ends the delivery `failed` without retrying.' },
    },
  },
});

/** One webhook per event type of the registry, under its name. */
export const WEBHOOKS = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type.name, webhookOf(type)]));
