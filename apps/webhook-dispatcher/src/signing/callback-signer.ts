import { createHmac } from 'node:crypto';
import type { JwtService } from '@nestjs/jwt';
import {
  STANDARD_WEBHOOK_SIGNATURE_HEADER,
  STANDARD_WEBHOOK_TIMESTAMP_HEADER,
  TEST_WEBHOOK_ID_PREFIX,
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_AUTH_SCHEME,
  WEBHOOK_ID_HEADER,
  WEBHOOK_USER_AGENT,
  type CallbackKind,
} from '@tailsync/webhooks';
import type { DomainSigningKey } from './domain-signing-key';
import { signWebhook, signWebhookEdDSA } from './webhook-token';

/**
 * What signs a callback: the subscription's shared secrets (`hmac-sha256`: the current one first,
 * it alone signs the JWT, then any still in their grace period), or the domain's Ed25519 key
 * (`ed25519`: the JWT `EdDSA`, `webhook-signature` `v1a`).
 */
export type CallbackSigningKeys = { secrets: readonly [string, ...string[]] } | { signingKey: DomainSigningKey };

export interface SignCallbackInput {
  /** The exact JSON text sent as the body. */
  body: string;
  /** The secrets, or the key, that sign it. */
  keys: CallbackSigningKeys;
  domain: string;
  eventName: string;
  /** An event's callback, or a Test call's (`test: true` in the JWT, a `test_` Webhook-Id). */
  kind: CallbackKind;
  /** `Webhook-Id`: the event id (the same on every attempt), or `test_<uuid>` for a Test call. */
  webhookId: string;
  /** 1-based attempt number. */
  attempt: number;
  /** Clock of the attempt; defaults to now. */
  now?: Date;
  /** The JWT's `jti`; fresh unless given (only the shared test vectors pin it). */
  jti?: string;
}

/**
 * Every header of one callback attempt: the contract's (`Authorization: Token <JWT>`, `Webhook-Id`,
 * `Webhook-Attempt`, …) and the Standard Webhooks pair, whose timestamp is the JWT's `iat` (one clock
 * reading for both, so a receiver checking either sees the same moment).
 */
export function signCallback(input: SignCallbackInput, jwt: JwtService): Record<string, string> {
  const { body, webhookId, attempt, kind } = input;
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError('signCallback: attempt must be an integer >= 1');
  // Both marks of a Test call travel signed; they must never disagree.
  if ((kind === 'test') !== webhookId.startsWith(TEST_WEBHOOK_ID_PREFIX)) {
    throw new RangeError(`signCallback: a ${kind} callback's Webhook-Id ${kind === 'test' ? 'must' : 'must not'} start with ${TEST_WEBHOOK_ID_PREFIX}`);
  }
  const now = input.now ?? new Date();
  const claims = { body, domain: input.domain, eventName: input.eventName, kind, now, jti: input.jti };
  const timestamp = Math.floor(now.getTime() / 1000);
  const { keys } = input;
  const token = 'secrets' in keys ? signWebhook({ ...claims, secret: keys.secrets[0] }, jwt) : signWebhookEdDSA(claims, keys.signingKey);
  const signatures = 'secrets' in keys
    ? keys.secrets.map((secret) => standardWebhookSignature(secret, webhookId, timestamp, body))
    : [`v1a,${keys.signingKey.signText(`${webhookId}.${timestamp}.${body}`)}`];
  return {
    'Content-Type': 'application/json',
    Authorization: `${WEBHOOK_AUTH_SCHEME} ${token}`,
    'User-Agent': WEBHOOK_USER_AGENT,
    [WEBHOOK_ID_HEADER]: webhookId,
    [WEBHOOK_ATTEMPT_HEADER]: String(attempt),
    [STANDARD_WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [STANDARD_WEBHOOK_SIGNATURE_HEADER]: signatures.join(' '),
  };
}

/** `v1,` + base64 HMAC-SHA256 of `"<id>.<timestamp>.<body>"`, keyed by the UTF-8 bytes of the secret. */
function standardWebhookSignature(secret: string, webhookId: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${webhookId}.${timestamp}.`).update(body, 'utf8').digest('base64');
  return `v1,${mac}`;
}
