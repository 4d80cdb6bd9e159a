import { createHash, createSecretKey, randomUUID } from 'node:crypto';
import type { JwtService } from '@nestjs/jwt';
import { TOKEN_TTL_SECONDS, WEBHOOK_ISSUER, WEBHOOK_JWT_ALGORITHM, secretId, type CallbackKind, type WebhookClaims } from '@tailsync/webhooks';
import type { DomainSigningKey } from './domain-signing-key';

export interface SignWebhookInput {
  /** The exact JSON text that will be sent as the request body (sent as UTF-8). */
  body: string;
  /** The subscription's shared secret; the HMAC key is its UTF-8 bytes. */
  secret: string;
  /** The subscription's domain (`sub`). */
  domain: string;
  /** The event name (`evt`). */
  eventName: string;
  /** A Test call's token carries `test: true`, so receivers tell it from an event. */
  kind: CallbackKind;
  /** Clock for `iat`; defaults to the current time. */
  now?: Date;
  /** `jti`; a fresh UUID unless given (the shared test vectors pin it to be reproducible). */
  jti?: string;
}

/**
 * Signs one callback attempt: an HS256 JWT whose key is the UTF-8 bytes of the shared secret, whose
 * header's `kid` is the secret's `secretId` and whose claims are
 * `{ payloadHash, iat, exp = iat + 300, jti (fresh UUID), iss, sub, evt }`, plus `test: true` on a
 * Test call. Call it once per attempt: every call yields a fresh `jti` and `iat`.
 */
export function signWebhook(input: SignWebhookInput, jwt: JwtService): string {
  const { secret } = input;
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('signWebhook: secret must be a non-empty string');
  // The key is a secret KeyObject over the UTF-8 bytes of the shared secret: given a string or a
  // Buffer, jsonwebtoken would first try to read it as a PEM private key (and then refuse HS256 for a
  // secret that happens to be one). @nestjs/jwt hands `secret` to jsonwebtoken untouched, and
  // jsonwebtoken accepts a KeyObject; only the typings say string | Buffer.
  // `iat` and `exp` are in the payload, so no `expiresIn` (jsonwebtoken keeps a payload-supplied `iat`).
  const key = createSecretKey(Buffer.from(secret, 'utf8')) as unknown as Buffer;
  return jwt.sign(webhookClaims(input), { secret: key, algorithm: WEBHOOK_JWT_ALGORITHM, keyid: secretId(secret) });
}

/**
 * Signs one callback attempt of a subscription with `signatureScheme: "ed25519"`: the same claims,
 * an `EdDSA` JWT (RFC 8037) by the domain's signing key, whose `kid` names it in the JWK Set.
 */
export function signWebhookEdDSA(input: Omit<SignWebhookInput, 'secret'>, key: DomainSigningKey): string {
  return key.signJwt(webhookClaims(input));
}

/** The claims of one attempt's token, whatever signs it. */
function webhookClaims(input: Omit<SignWebhookInput, 'secret'>): WebhookClaims {
  const { body, domain, eventName } = input;
  if (typeof body !== 'string') throw new TypeError('signWebhook: body must be the exact JSON text to send');
  if (typeof domain !== 'string' || domain.length === 0) throw new TypeError('signWebhook: domain must be a non-empty string');
  if (typeof eventName !== 'string' || eventName.length === 0) {
    throw new TypeError('signWebhook: eventName must be a non-empty string');
  }
  const nowMs = (input.now ?? new Date()).getTime();
  if (!Number.isFinite(nowMs)) throw new TypeError('signWebhook: now must be a valid Date');

  const iat = Math.floor(nowMs / 1000);
  return {
    payloadHash: createHash('sha256').update(body, 'utf8').digest('hex'),
    iat,
    exp: iat + TOKEN_TTL_SECONDS,
    jti: input.jti ?? randomUUID(),
    iss: WEBHOOK_ISSUER,
    sub: domain,
    evt: eventName,
    ...(input.kind === 'test' ? { test: true as const } : {}),
  };
}
