import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pickRawBody, refusalBody, WWW_AUTHENTICATE } from './raw-body';
import { keySource, type VerifierOptions } from './verifier-options';
import { verifyWebhookRequest, type VerifiedWebhook } from './verify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `webhookPreHandler` once the request is verified. */
    webhook?: VerifiedWebhook;
  }
}

export type WebhookPreHandlerOptions = VerifierOptions<FastifyRequest>;

/**
 * Makes `application/json` bodies arrive as the raw Buffer in this Fastify context (register the
 * webhook route in a plugin of its own, so the rest of the app keeps parsing JSON): the verifier
 * must hash the exact bytes received.
 */
export function keepRawJsonBody(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
}

/**
 * A Fastify `preHandler` that verifies tailsync webhook callbacks:
 *
 * ```ts
 * app.register(async (hooks) => {
 *   keepRawJsonBody(hooks);
 *   hooks.post('/webhooks/tailsync', { preHandler: webhookPreHandler({ secret }) }, async (req, reply) => {
 *     await handle(req.webhook!.payload);
 *     return reply.code(204).send();
 *   });
 * });
 * ```
 *
 * With `signatureScheme: "ed25519"`, pass `{ publicKeys: new RemoteKeySet(webhookJwksUrl(baseUrl, domain)) }`.
 *
 * On failure it answers `401 { "error", "step", "code" }`; on success it sets `request.webhook`.
 */
export function webhookPreHandler(options: WebhookPreHandlerOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const keysFor = keySource(options, 'webhookPreHandler');
  return async function tailsyncWebhookPreHandler(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const rawBody = pickRawBody(request as FastifyRequest & { rawBody?: unknown });
    if (rawBody === undefined) {
      throw new Error('webhookPreHandler needs the raw body: call keepRawJsonBody(app) in the context of the webhook route');
    }
    const result = verifyWebhookRequest({
      authorizationHeader: request.headers.authorization,
      rawBody,
      ...(await keysFor(request, request.headers.authorization)),
      clockToleranceSeconds: options.clockToleranceSeconds,
      testCalls: options.testCalls,
    });
    if (!result.ok) {
      await reply.code(401).header('WWW-Authenticate', WWW_AUTHENTICATE).send(refusalBody(result));
      return;
    }
    request.webhook = { claims: result.claims, payload: result.payload };
  };
}
