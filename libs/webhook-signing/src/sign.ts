import { createSecretKey, randomUUID } from 'node:crypto';
import type { JwtService } from '@nestjs/jwt';
import {
  TOKEN_TTL_SECONDS,
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_AUTH_SCHEME,
  WEBHOOK_ID_HEADER,
  WEBHOOK_ISSUER,
  WEBHOOK_JWT_ALGORITHM,
  WEBHOOK_USER_AGENT,
  payloadHash,
  type WebhookClaims,
} from './claims';
import { secretId } from './secret-id';

export interface SignWebhookInput {
  /** The exact JSON text that will be sent as the request body (sent as UTF-8). */
  body: string;
  /** The subscription's shared secret; the HMAC key is its UTF-8 bytes. */
  secret: string;
  /** The subscription's domain (`sub`). */
  domain: string;
  /** The event name (`evt`). */
  eventName: string;
  /** Clock for `iat`; defaults to the current time. */
  now?: Date;
  /** `true` on a Test call only: the token then carries `test: true`, so a receiver can tell it from an event. */
  test?: true;
}

/**
 * Signs one callback attempt: an HS256 JWT whose key is the UTF-8 bytes of the shared secret, whose
 * header's `kid` is the secret's {@link secretId} and whose claims are
 * `{ payloadHash, iat, exp = iat + 300, jti (fresh UUID), iss, sub, evt }`.
 * Call it once per attempt: every call yields a fresh `jti` and `iat`.
 */
export function signWebhook(input: SignWebhookInput, jwt: JwtService): string {
  const { body, secret, domain, eventName } = input;
  if (typeof body !== 'string') throw new TypeError('signWebhook: body must be the exact JSON text to send');
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('signWebhook: secret must be a non-empty string');
  if (typeof domain !== 'string' || domain.length === 0) throw new TypeError('signWebhook: domain must be a non-empty string');
  if (typeof eventName !== 'string' || eventName.length === 0) {
    throw new TypeError('signWebhook: eventName must be a non-empty string');
  }
  const nowMs = (input.now ?? new Date()).getTime();
  if (!Number.isFinite(nowMs)) throw new TypeError('signWebhook: now must be a valid Date');

  const iat = Math.floor(nowMs / 1000);
  const claims: WebhookClaims = {
    payloadHash: payloadHash(body),
    iat,
    exp: iat + TOKEN_TTL_SECONDS,
    jti: randomUUID(),
    iss: WEBHOOK_ISSUER,
    sub: domain,
    evt: eventName,
    ...(input.test ? { test: true as const } : {}),
  };
  // The key is a secret KeyObject over the UTF-8 bytes of the shared secret: given a string or a
  // Buffer, jsonwebtoken would first try to read it as a PEM private key (and then refuse HS256 for a
  // secret that happens to be one). @nestjs/jwt hands `secret` to jsonwebtoken untouched, and
  // jsonwebtoken accepts a KeyObject; only the typings say string | Buffer.
  // `iat` and `exp` are in the payload, so no `expiresIn` (jsonwebtoken keeps a payload-supplied `iat`).
  const key = createSecretKey(Buffer.from(secret, 'utf8')) as unknown as Buffer;
  return jwt.sign(claims, { secret: key, algorithm: WEBHOOK_JWT_ALGORITHM, keyid: secretId(secret) });
}

export interface WebhookHeadersInput {
  /** The token from {@link signWebhook} for this attempt. */
  token: string;
  /** The event id; the same on every attempt. */
  eventId: string;
  /** 1-based attempt number. */
  attempt: number;
}

/** The headers of one callback request (see the contract's "Events and delivery"). */
export function webhookHeaders({ token, eventId, attempt }: WebhookHeadersInput): Record<string, string> {
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError('webhookHeaders: attempt must be an integer >= 1');
  return {
    'Content-Type': 'application/json',
    Authorization: `${WEBHOOK_AUTH_SCHEME} ${token}`,
    'User-Agent': WEBHOOK_USER_AGENT,
    [WEBHOOK_ID_HEADER]: eventId,
    [WEBHOOK_ATTEMPT_HEADER]: String(attempt),
  };
}
