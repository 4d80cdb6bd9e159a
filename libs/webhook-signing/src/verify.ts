import { createHash, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_AUTH_SCHEME, WEBHOOK_JWT_ALGORITHM, type WebhookClaims } from './claims';
import { decodeJsonSegment, hs256Matches, splitJws } from './jws';
import { ed25519Keys, ed25519Verifies, WEBHOOK_EDDSA_ALGORITHM, type WebhookPublicKeys } from './public-keys';
import { secretId } from './secret-id';
import { refusedTestCall, type TestCallPolicy } from './test-calls';

/**
 * The receiver's seven steps (the README's "Verifying: the seven steps, in order"):
 * 1 take the JWT from `Authorization: Token <JWT>`; 2 verify the signature with the shared secret;
 * 3 check the token has not expired; 4 read `payloadHash`; 5 hash the raw body;
 * 6 compare the two; 7 parse the JSON payload (and refuse a Test call unless accepted).
 */
export type WebhookVerificationStep = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/**
 * Why a callback was refused, the same in the Python package and in the shared test vectors:
 * one code per step, and `test-call` for a genuine Test call the receiver did not accept.
 */
export type WebhookRefusalCode =
  | 'missing-token'
  | 'invalid-signature'
  | 'expired'
  | 'missing-payload-hash'
  | 'payload-mismatch'
  | 'invalid-json'
  | 'test-call';

/** What a successful verification yields (and what the Express/Fastify/Nest helpers put on `req.webhook`). */
export interface VerifiedWebhook {
  claims: WebhookClaims;
  payload: unknown;
}

export type WebhookVerificationResult =
  | ({ ok: true } & VerifiedWebhook)
  | { ok: false; step: WebhookVerificationStep; code: WebhookRefusalCode; reason: string };

/**
 * One shared secret, or several while a secret is being rotated: the one whose `secretId` is the
 * token's `kid` is tried alone; without a match (or a `kid`) each is tried in turn.
 */
export type WebhookSecret = string | readonly string[];

export interface VerifyWebhookRequestInput {
  /** The value of the `Authorization` request header (as Node gives it). */
  authorizationHeader: string | readonly string[] | null | undefined;
  /** The request body exactly as received: a Buffer of the bytes, or their UTF-8 text. */
  rawBody: Buffer | Uint8Array | string;
  /** The subscription's shared secret (HMAC key = its UTF-8 bytes), for `signatureScheme: "hmac-sha256"`. */
  secret?: WebhookSecret;
  /**
   * The domain's public keys (its JWK Set, as fetched from `/.well-known/webhooks/jwks.json`), for
   * `signatureScheme: "ed25519"`. Pass exactly one of `secret` and `publicKeys`.
   */
  publicKeys?: WebhookPublicKeys;
  /** Clock for the expiry check; defaults to the current time. */
  now?: Date;
  /** Seconds of clock skew tolerated on `exp`; default 0. */
  clockToleranceSeconds?: number;
  /** A Test call (`test: true` in the token) is refused unless this is `'accept'`; default `'refuse'`. */
  testCalls?: TestCallPolicy;
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;
const STEP_CODES: Record<Exclude<WebhookVerificationStep, 5>, WebhookRefusalCode> = {
  1: 'missing-token',
  2: 'invalid-signature',
  3: 'expired',
  4: 'missing-payload-hash',
  6: 'payload-mismatch',
  7: 'invalid-json',
};
const fail = (step: Exclude<WebhookVerificationStep, 5>, reason: string): WebhookVerificationResult => ({ ok: false, step, code: STEP_CODES[step], reason });

/**
 * Verifies one callback request, performing exactly the seven steps in order and stopping at the
 * first that fails. Framework-free: pass the header value and the raw body bytes. With `secret`,
 * HS256 only; with `publicKeys`, EdDSA (Ed25519) only, by the key the token's `kid` names (`alg:
 * none`, and every other algorithm, are refused: a token signed HS256 with a public key's bytes
 * does not pass). The body hash is compared in constant time.
 *
 * Throws (a programming error, not a bad request) only when the keys or `rawBody` are unusable.
 */
export function verifyWebhookRequest(input: VerifyWebhookRequestInput): WebhookVerificationResult {
  const keys = verificationKeys(input, 'verifyWebhookRequest');
  const raw = normaliseBody(input.rawBody);
  const nowMs = (input.now ?? new Date()).getTime();
  if (!Number.isFinite(nowMs)) throw new TypeError('verifyWebhookRequest: now must be a valid Date');
  const tolerance = input.clockToleranceSeconds ?? 0;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('verifyWebhookRequest: clockToleranceSeconds must be a non-negative number');
  }
  const clock = nowMs / 1000;

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
  const jws = splitJws(match[2]);
  if (jws === undefined) return fail(1, 'Authorization header does not carry a JWT');

  // (2) Verify the signature: HS256 with the shared secret, or EdDSA with the public key; the key the `kid` names first.
  const jwsHeader = jws.header as { alg?: unknown; kid?: unknown } | undefined;
  if (typeof jwsHeader !== 'object' || jwsHeader === null || Array.isArray(jwsHeader)) return fail(2, "the token's header is not base64url JSON");
  const algorithm = 'secrets' in keys ? WEBHOOK_JWT_ALGORITHM : WEBHOOK_EDDSA_ALGORITHM;
  if (jwsHeader.alg !== algorithm) return fail(2, `only ${algorithm} tokens are accepted, not the algorithm ${JSON.stringify(jwsHeader.alg)}`);
  const kid = typeof jwsHeader.kid === 'string' ? jwsHeader.kid : undefined;
  if ('secrets' in keys) {
    const named = kid === undefined ? [] : keys.secrets.filter((s) => secretId(s) === kid);
    if (!(named.length > 0 ? named : keys.secrets).some((secret) => hs256Matches(jws, secret))) return fail(2, 'invalid signature');
  } else {
    // A kid the set does not hold is refused: fetch the set again (RemoteKeySet does) rather than try every key.
    const named = kid === undefined ? keys.publicKeys : keys.publicKeys.filter((k) => k.kid === kid);
    if (named.length === 0) return fail(2, `no public key with kid ${JSON.stringify(kid)} (fetch the JWK Set again)`);
    if (!ed25519Verifies(named, Buffer.from(jws.signingInput, 'ascii'), jws.signature)) return fail(2, 'invalid signature');
  }
  const verified = decodeJsonSegment(jws.payloadSegment);
  if (typeof verified !== 'object' || verified === null || Array.isArray(verified)) return fail(2, "the token's claims are not a JSON object");
  const claims = verified as Partial<WebhookClaims> & { nbf?: unknown };

  // (3) Check the token has not expired.
  if (typeof claims.exp !== 'number') return fail(3, 'token has no numeric exp claim');
  if (clock >= claims.exp + tolerance) return fail(3, 'token expired');
  if (typeof claims.nbf === 'number' && clock + tolerance < claims.nbf) return fail(3, 'token not yet valid');

  // (4) Read the payloadHash claim.
  if (typeof claims.payloadHash !== 'string' || !SHA256_HEX.test(claims.payloadHash)) {
    return fail(4, 'payloadHash claim missing or not a hex SHA-256 digest');
  }
  const expected = Buffer.from(claims.payloadHash, 'hex');

  // (5) Compute the SHA-256 of the raw body, and (6) compare in constant time (both are 32 bytes).
  const actual = createHash('sha256').update(raw).digest();
  if (!timingSafeEqual(expected, actual)) return fail(6, 'payloadHash does not match the request body');

  // (7) Parse the JSON payload (strict UTF-8), and process it only if it is not a refused Test call.
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return fail(7, 'request body is not valid JSON');
  }
  if (claims.test === true && refusedTestCall(input.testCalls)) {
    return { ok: false, step: 7, code: 'test-call', reason: "a Test call, refused: pass testCalls: 'accept' to take it" };
  }
  return { ok: true, claims: claims as WebhookClaims, payload };
}

/** @internal What a callback is checked with: the shared secrets, or the Ed25519 public keys. */
export type VerificationKeys = { secrets: string[] } | { publicKeys: ReturnType<typeof ed25519Keys> };

/** @internal The keys of the input; a TypeError unless exactly one of `secret` and `publicKeys` is usable. */
export function verificationKeys(input: { secret?: WebhookSecret; publicKeys?: WebhookPublicKeys }, caller: string): VerificationKeys {
  if ((input.secret === undefined) === (input.publicKeys === undefined)) throw new TypeError(`${caller}: pass exactly one of secret and publicKeys`);
  if (input.publicKeys !== undefined) return { publicKeys: ed25519Keys(input.publicKeys, caller) };
  const secret = input.secret;
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : [];
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError(`${caller}: secret must be a non-empty string (or a non-empty list of them)`);
  }
  return { secrets: list };
}

/** @internal The body's bytes; a string is taken as its UTF-8 bytes. */
export function normaliseBody(body: Buffer | Uint8Array | string): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('rawBody must be the raw request body (Buffer or string)');
}
