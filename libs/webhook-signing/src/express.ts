import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pickRawBody, refusalBody, WWW_AUTHENTICATE } from './raw-body';
import { keySource, type VerifierOptions } from './verifier-options';
import { verifyWebhookRequest, type VerifiedWebhook } from './verify';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by `webhookVerifier` once the request is verified. */
      webhook?: VerifiedWebhook;
    }
  }
}

export type WebhookVerifierOptions = VerifierOptions<Request>;

/**
 * Express middleware that verifies tailsync webhook callbacks. It needs the raw body bytes, so
 * mount `express.raw({ type: 'application/json' })` before it (never `express.json()`):
 *
 * ```ts
 * app.post('/webhooks/tailsync',
 *   express.raw({ type: 'application/json' }),
 *   webhookVerifier({ secret: process.env.TAILSYNC_WEBHOOK_SECRET! }),
 *   (req, res) => { handle(req.webhook!.payload); res.sendStatus(204); });
 * ```
 *
 * For `signatureScheme: "ed25519"` pass `{ publicKeys: new RemoteKeySet(webhookJwksUrl(baseUrl, domain)) }`
 * instead of the secret: the keys are fetched from the service and kept.
 *
 * On failure it answers `401 { "error": <reason>, "step": <1..7>, "code" }`; on success it sets
 * `req.webhook = { claims, payload }` and calls `next()`.
 */
export function webhookVerifier(options: WebhookVerifierOptions): RequestHandler {
  const keysFor = keySource(options, 'webhookVerifier');
  return function tailsyncWebhookVerifier(req: Request, res: Response, next: NextFunction): void {
    const rawBody = pickRawBody(req as Request & { rawBody?: unknown });
    if (rawBody === undefined) {
      next(new Error('webhookVerifier needs the raw body: mount express.raw({ type: "application/json" }) before it, not express.json()'));
      return;
    }
    Promise.resolve()
      .then(() => keysFor(req, req.headers.authorization))
      .then((keys) => {
        const result = verifyWebhookRequest({
          authorizationHeader: req.headers.authorization,
          rawBody,
          ...keys,
          clockToleranceSeconds: options.clockToleranceSeconds,
          testCalls: options.testCalls,
        });
        if (!result.ok) {
          res.status(401).set('WWW-Authenticate', WWW_AUTHENTICATE).json(refusalBody(result));
          return;
        }
        req.webhook = { claims: result.claims, payload: result.payload };
        next();
      })
      .catch(next);
  };
}
