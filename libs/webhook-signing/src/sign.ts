import { createHash, createHmac, createPrivateKey, createPublicKey, KeyObject, randomUUID, sign as ed25519Sign, type JsonWebKey } from 'node:crypto';
import {
  TEST_WEBHOOK_ID_PREFIX,
  TOKEN_TTL_SECONDS,
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_AUTH_SCHEME,
  WEBHOOK_ID_HEADER,
  WEBHOOK_ISSUER,
  WEBHOOK_JWT_ALGORITHM,
  WEBHOOK_USER_AGENT,
  type CallbackKind,
  type WebhookClaims,
} from './claims';
import { jwkThumbprint, WEBHOOK_EDDSA_ALGORITHM } from './public-keys';
import { secretId } from './secret-id';
import { STANDARD_WEBHOOK_SIGNATURE_HEADER, STANDARD_WEBHOOK_TIMESTAMP_HEADER } from './standard-webhooks';

/** The event name of the product's callbacks, used when neither the input nor the payload names one: the first event type tailsync registered. */
// generated from the event-type registry by `npm run generate:webhook-events`: default-event-name
const DEFAULT_EVENT_NAME = 'Product.RiskAssessmentExecuted';
// end of default-event-name

export interface SignInput {
  /** The callback's body: the exact JSON text to send, or a value sent as its `JSON.stringify`. */
  payload: string | object;
  /** `signatureScheme: "hmac-sha256"`: the subscription's shared secret. */
  secret?: string;
  /**
   * `signatureScheme: "ed25519"`: a private Ed25519 key (a KeyObject or a private JWK); the
   * receiver verifies with its public JWK, whose `kid` is the key's RFC 7638 thumbprint.
   */
  privateKey?: KeyObject | JsonWebKey;
  /** `sub`: the subscription's domain; default the payload's `domain`, else `"acme"`. */
  domain?: string;
  /** `evt`: default the payload's `eventName`, else the first event type tailsync registered (`DEFAULT_EVENT_NAME`). */
  eventName?: string;
  /** An event (default) or a Test call, whose token carries `test: true` and whose id starts `test_`. */
  kind?: CallbackKind;
  /** `Webhook-Id`: default the payload's `eventId` (a fresh `test_<uuid>` for a Test call). */
  webhookId?: string;
  /** `Webhook-Attempt`; default 1. */
  attempt?: number;
  /** The signing time (`iat`, `webhook-timestamp`); default now. */
  now?: Date;
}

/** A signed callback: send `body` with `headers` to the handler under test. */
export interface SignedWebhook {
  body: string;
  headers: Record<string, string>;
}

/**
 * Signs a callback as tailsync's dispatcher does, so a receiver can test its own handler: the
 * `Authorization: Token <JWT>` (HS256 with the shared secret, or EdDSA with an Ed25519 key, `kid`
 * naming it) and the Standard Webhooks headers (`v1` HMAC or `v1a` Ed25519 signature).
 *
 * ```ts
 * const { body, headers } = sign({ payload: { eventId, eventName, domain, data }, secret });
 * await fetch('http://localhost:3000/webhooks/tailsync', { method: 'POST', body, headers });
 * ```
 */
export function sign(input: SignInput): SignedWebhook {
  const body = typeof input.payload === 'string' ? input.payload : JSON.stringify(input.payload);
  if (typeof body !== 'string') throw new TypeError('sign: payload must be JSON text or a JSON-serialisable value');
  const fields = payloadFields(body);
  const kind: CallbackKind = input.kind ?? 'event';
  const nowMs = (input.now ?? new Date()).getTime();
  if (!Number.isFinite(nowMs)) throw new TypeError('sign: now must be a valid Date');
  const iat = Math.floor(nowMs / 1000);
  const webhookId = input.webhookId ?? (kind === 'test' ? `${TEST_WEBHOOK_ID_PREFIX}${randomUUID()}` : (fields.eventId ?? randomUUID()));
  const claims: WebhookClaims = {
    payloadHash: createHash('sha256').update(body, 'utf8').digest('hex'),
    iat,
    exp: iat + TOKEN_TTL_SECONDS,
    jti: randomUUID(),
    iss: WEBHOOK_ISSUER,
    sub: input.domain ?? fields.domain ?? 'acme',
    evt: input.eventName ?? fields.eventName ?? DEFAULT_EVENT_NAME,
    ...(kind === 'test' ? { test: true as const } : {}),
  };
  const signer = signerOf(input);
  const signedContent = Buffer.from(`${webhookId}.${iat}.${body}`, 'utf8');
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      Authorization: `${WEBHOOK_AUTH_SCHEME} ${compactJws({ alg: signer.algorithm, typ: 'JWT', kid: signer.kid }, claims, signer.sign)}`,
      'User-Agent': WEBHOOK_USER_AGENT,
      [WEBHOOK_ID_HEADER]: webhookId,
      [WEBHOOK_ATTEMPT_HEADER]: String(input.attempt ?? 1),
      [STANDARD_WEBHOOK_TIMESTAMP_HEADER]: String(iat),
      [STANDARD_WEBHOOK_SIGNATURE_HEADER]: `${signer.standardVersion},${signer.sign(signedContent).toString('base64')}`,
    },
  };
}

interface Signer {
  algorithm: string;
  kid: string;
  standardVersion: 'v1' | 'v1a';
  sign(data: Buffer): Buffer;
}

function signerOf(input: SignInput): Signer {
  if ((input.secret === undefined) === (input.privateKey === undefined)) throw new TypeError('sign: pass exactly one of secret and privateKey');
  if (input.secret !== undefined) {
    const secret = input.secret;
    if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('sign: secret must be a non-empty string');
    return { algorithm: WEBHOOK_JWT_ALGORITHM, kid: secretId(secret), standardVersion: 'v1', sign: (data) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(data).digest() };
  }
  const key = input.privateKey instanceof KeyObject ? input.privateKey : createPrivateKey({ key: input.privateKey as JsonWebKey, format: 'jwk' });
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') throw new TypeError('sign: privateKey must be a private Ed25519 key');
  const publicJwk = createPublicKey(key).export({ format: 'jwk' });
  return { algorithm: WEBHOOK_EDDSA_ALGORITHM, kid: jwkThumbprint(publicJwk), standardVersion: 'v1a', sign: (data) => ed25519Sign(null, data, key) };
}

function compactJws(header: object, claims: object, signWith: (data: Buffer) => Buffer): string {
  const signingInput = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${signingInput}.${signWith(Buffer.from(signingInput, 'ascii')).toString('base64url')}`;
}

/** The payload's own names for the token's claims, when it is the product's event envelope. */
function payloadFields(body: string): { eventId?: string; eventName?: string; domain?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const text = (name: string) => {
    const value = (parsed as Record<string, unknown>)[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  return { eventId: text('eventId'), eventName: text('eventName'), domain: text('domain') };
}
