import { createHash } from 'node:crypto';

/** `iss` of every webhook token. */
export const WEBHOOK_ISSUER = 'tailsync';

/** Lifetime of a webhook token: `exp` = `iat` + this many seconds. */
export const TOKEN_TTL_SECONDS = 300;

/** `User-Agent` of every callback request. */
export const WEBHOOK_USER_AGENT = 'tailsync-webhooks/15.4.9707.25929';

/** The authorization scheme of callback requests: `Authorization: Token <JWT>`. */
export const WEBHOOK_AUTH_SCHEME = 'Token';

/** The only signing algorithm used (and accepted by the verifier). */
export const WEBHOOK_JWT_ALGORITHM = 'HS256';

/** Header carrying the event id; identical on every attempt of one event (dedupe on it). */
export const WEBHOOK_ID_HEADER = 'Webhook-Id';

/** Header carrying the 1-based attempt number. */
export const WEBHOOK_ATTEMPT_HEADER = 'Webhook-Attempt';

/** A Test call's `Webhook-Id` starts with this (its JWT carries `test: true`). */
export const TEST_WEBHOOK_ID_PREFIX = 'test_';

/** What a callback carries: an event, or a Test call sent with `POST /WebhookSubscriptions/Test`. */
export type CallbackKind = 'event' | 'test';

/** Claims of the JWT carried by every callback request. */
export interface WebhookClaims {
  /** Lowercase hex SHA-256 of the exact body bytes sent (64 characters). */
  payloadHash: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expiry, seconds since the epoch (`iat` + {@link TOKEN_TTL_SECONDS}). */
  exp: number;
  /** Unique per attempt (a random UUID). */
  jti: string;
  /** Always {@link WEBHOOK_ISSUER}. */
  iss: string;
  /** The domain the subscription belongs to. */
  sub: string;
  /** The event name, e.g. `Product.RiskAssessmentExecuted`. */
  evt: string;
  /** `true` on a Test call only (absent on events). */
  test?: true;
}

/**
 * Lowercase hex SHA-256 of the exact bytes of a body. A string is hashed as its UTF-8 bytes, so
 * pass the raw text as received (never a re-serialised `JSON.stringify` of a parsed object).
 */
export function payloadHash(body: Buffer | string): string {
  return createHash('sha256').update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body).digest('hex');
}
