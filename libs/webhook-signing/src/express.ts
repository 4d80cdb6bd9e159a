import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pickRawBody, WWW_AUTHENTICATE } from './raw-body';
import { verifyWebhookRequest, type VerifiedWebhook, type WebhookSecret } from './verify';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by `webhookVerifier` / `WebhookSignatureGuard` once the request is verified. */
      webhook?: VerifiedWebhook;
    }
  }
}

export type WebhookVerifierOptions = {
  /** Seconds of clock skew tolerated on `exp`; default 0. */
  clockToleranceSeconds?: number;
} & (
  | { secret: WebhookSecret; getSecret?: never }
  | { getSecret: (req: Request) => WebhookSecret | Promise<WebhookSecret>; secret?: never }
);

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
 * On failure it answers `401 { "error": <reason>, "step": <1..7> }`; on success it sets
 * `req.webhook = { claims, payload }` and calls `next()`.
 */
export function webhookVerifier(options: WebhookVerifierOptions): RequestHandler {
  const { secret, getSecret } = options as { secret?: WebhookSecret; getSecret?: (req: Request) => WebhookSecret | Promise<WebhookSecret> };
  if (secret === undefined && typeof getSecret !== 'function') {
    throw new TypeError('webhookVerifier: pass { secret } or { getSecret }');
  }
  return function tailsyncWebhookVerifier(req: Request, res: Response, next: NextFunction): void {
    const rawBody = pickRawBody(req as Request & { rawBody?: unknown });
    if (rawBody === undefined) {
      next(new Error('webhookVerifier needs the raw body: mount express.raw({ type: "application/json" }) before it, not express.json()'));
      return;
    }
    Promise.resolve()
      .then(() => (secret !== undefined ? secret : getSecret!(req)))
      .then((resolvedSecret) => {
        const result = verifyWebhookRequest({
          authorizationHeader: req.headers.authorization,
          rawBody,
          secret: resolvedSecret,
          clockToleranceSeconds: options.clockToleranceSeconds,
        });
        if (!result.ok) {
          res.status(401).set('WWW-Authenticate', WWW_AUTHENTICATE).json({ error: result.reason, step: result.step });
          return;
        }
        req.webhook = { claims: result.claims, payload: result.payload };
        next();
      })
      .catch(next);
  };
}
