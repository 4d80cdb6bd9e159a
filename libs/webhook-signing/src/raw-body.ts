/**
 * Picks the raw body bytes from a request that a framework has (or has not) buffered.
 * Returns `undefined` when the body was consumed by a parser that threw the bytes away
 * (a misconfiguration the caller reports loudly).
 * @internal
 */
export function pickRawBody(req: { rawBody?: unknown; body?: unknown }): Buffer | string | undefined {
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
  if (typeof req.rawBody === 'string') return req.rawBody;
  if (Buffer.isBuffer(req.body)) return req.body;
  if (typeof req.body === 'string') return req.body;
  // No parser matched (e.g. another Content-Type, or no body): nothing was received as JSON.
  // Verifying the empty byte string fails closed at step 6 for any signed body.
  if (req.body === undefined || req.body === null) return Buffer.alloc(0);
  if (typeof req.body === 'object' && Object.keys(req.body as object).length === 0) return Buffer.alloc(0);
  return undefined;
}

export const WWW_AUTHENTICATE = 'Token error="invalid_token"';

/** @internal The body of the 401 every helper answers: the reason, the step and the code. */
export const refusalBody = (refusal: { reason: string; step: number; code: string }) => ({ error: refusal.reason, step: refusal.step, code: refusal.code });
