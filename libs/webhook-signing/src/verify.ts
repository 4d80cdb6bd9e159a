import { createHash, createSecretKey, timingSafeEqual } from 'node:crypto';
import { JsonWebTokenError, NotBeforeError, TokenExpiredError, verify as verifyJwt } from 'jsonwebtoken';
import { WEBHOOK_AUTH_SCHEME, WEBHOOK_JWT_ALGORITHM, type WebhookClaims } from './claims';
import { secretId } from './secret-id';

/**
 * The receiver's seven steps (interface.md, "Callback requests sent by the service"):
 * 1 take the JWT from `Authorization: Token <JWT>`; 2 verify the signature with the shared secret;
 * 3 check the token has not expired; 4 read `payloadHash`; 5 hash the raw body;
 * 6 compare the two; 7 parse the JSON payload.
 */
export type WebhookVerificationStep = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** What a successful verification yields (and what the Express/Nest adapters put on `req.webhook`). */
export interface VerifiedWebhook {
  claims: WebhookClaims;
  payload: unknown;
}

export type WebhookVerificationResult =
  | ({ ok: true } & VerifiedWebhook)
  | { ok: false; step: WebhookVerificationStep; reason: string };

/**
 * One shared secret, or several while a secret is being rotated: the one whose {@link secretId} is
 * the token's `kid` is tried alone; without a match (or a `kid`) each is tried in turn.
 */
export type WebhookSecret = string | readonly string[];

export interface VerifyWebhookRequestInput {
  /** The value of the `Authorization` request header (as Node gives it). */
  authorizationHeader: string | readonly string[] | null | undefined;
  /** The request body exactly as received: a Buffer of the bytes, or their UTF-8 text. */
  rawBody: Buffer | Uint8Array | string;
  /** The subscription's shared secret (HMAC key = its UTF-8 bytes). */
  secret: WebhookSecret;
  /** Clock for the expiry check; defaults to the current time. */
  now?: Date;
  /** Seconds of clock skew tolerated on `exp`; default 0. */
  clockToleranceSeconds?: number;
}

const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const SHA256_HEX = /^[0-9a-f]{64}$/i;
const fail = (step: WebhookVerificationStep, reason: string): WebhookVerificationResult => ({ ok: false, step, reason });

/**
 * Verifies one callback request, performing exactly the seven steps in order and stopping at the
 * first that fails. Framework-free: pass the header value and the raw body bytes.
 *
 * Steps 2–3 use `jsonwebtoken` (the library `@nestjs/jwt` signs with) restricted to HS256 with a
 * secret `KeyObject`: it rejects `alg: none` and every other algorithm, checks the signature before
 * the expiry (so its error class tells step 2 from step 3), and is widely reviewed. The body hash is
 * compared with `crypto.timingSafeEqual`.
 *
 * Throws (a programming error, not a bad request) only when `secret` or `rawBody` is unusable.
 */
export function verifyWebhookRequest(input: VerifyWebhookRequestInput): WebhookVerificationResult {
  const secrets = normaliseSecrets(input.secret);
  const raw = normaliseBody(input.rawBody);
  const nowMs = (input.now ?? new Date()).getTime();
  if (!Number.isFinite(nowMs)) throw new TypeError('verifyWebhookRequest: now must be a valid Date');
  const tolerance = input.clockToleranceSeconds ?? 0;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('verifyWebhookRequest: clockToleranceSeconds must be a non-negative number');
  }

  // (1) Take the JWT from the Authorization header.
  let header = input.authorizationHeader;
  if (Array.isArray(header)) {
    if (header.length > 1) return fail(1, 'more than one Authorization header');
    header = header[0];
  }
  if (typeof header !== 'string' || header.trim() === '') return fail(1, 'missing Authorization header');
  const match = /^(\S+)\s+(\S+)$/.exec(header.trim());
  if (!match || match[1].toLowerCase() !== WEBHOOK_AUTH_SCHEME.toLowerCase()) {
    return fail(1, `Authorization header must be "${WEBHOOK_AUTH_SCHEME} <JWT>"`);
  }
  const token = match[2];
  if (!JWS_COMPACT.test(token)) return fail(1, 'Authorization header does not carry a JWT');

  // (2) Verify the signature with the shared secret, and (3) check the token has not expired.
  let verified: unknown;
  let lastReason = 'invalid signature';
  for (const secret of secretsFor(token, secrets)) {
    try {
      verified = verifyJwt(token, createSecretKey(Buffer.from(secret, 'utf8')), {
        algorithms: [WEBHOOK_JWT_ALGORITHM],
        clockTimestamp: Math.floor(nowMs / 1000),
        clockTolerance: tolerance,
      });
      break;
    } catch (err) {
      // jsonwebtoken checks the signature first: these two mean it was valid.
      if (err instanceof TokenExpiredError) return fail(3, 'token expired');
      if (err instanceof NotBeforeError) return fail(3, 'token not yet valid');
      if (err instanceof JsonWebTokenError && err.message === 'invalid exp value') return fail(3, 'token exp claim is not a number');
      lastReason = err instanceof JsonWebTokenError ? err.message : 'token could not be verified';
      if (lastReason !== 'invalid signature') break; // malformed token or wrong algorithm: no other secret helps
    }
  }
  if (verified === undefined) return fail(2, lastReason);
  if (typeof verified !== 'object' || verified === null || Array.isArray(verified)) {
    return fail(2, 'token claims are not a JSON object');
  }
  const claims = verified as Partial<WebhookClaims>;
  if (typeof claims.exp !== 'number') return fail(3, 'token has no exp claim');

  // (4) Read the payloadHash claim.
  if (typeof claims.payloadHash !== 'string' || !SHA256_HEX.test(claims.payloadHash)) {
    return fail(4, 'payloadHash claim missing or not a hex SHA-256 digest');
  }
  const expected = Buffer.from(claims.payloadHash, 'hex');

  // (5) Compute the SHA-256 of the raw body.
  const actual = createHash('sha256').update(raw).digest();

  // (6) Compare in constant time (both are 32 bytes).
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    return fail(6, 'payloadHash does not match the request body');
  }

  // (7) Parse the JSON payload (strict UTF-8).
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return fail(7, 'request body is not valid JSON');
  }
  return { ok: true, claims: claims as WebhookClaims, payload };
}

/** The secret the token's `kid` names, when one does; else every secret (tokens without a `kid`). */
function secretsFor(token: string, secrets: string[]): string[] {
  let kid: unknown;
  try {
    kid = (JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8')) as { kid?: unknown }).kid;
  } catch {
    return secrets; // an unreadable header: jsonwebtoken reports it as step 2
  }
  const named = typeof kid === 'string' ? secrets.find((s) => secretId(s) === kid) : undefined;
  return named === undefined ? secrets : [named];
}

function normaliseSecrets(secret: WebhookSecret): string[] {
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : [];
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('verifyWebhookRequest: secret must be a non-empty string (or a non-empty list of them)');
  }
  return list;
}

function normaliseBody(body: Buffer | Uint8Array | string): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('verifyWebhookRequest: rawBody must be the raw request body (Buffer or string)');
}
