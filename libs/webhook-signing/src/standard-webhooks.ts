import { createHmac, timingSafeEqual } from 'node:crypto';
import { TEST_WEBHOOK_ID_PREFIX } from './claims';
import { headerValue, type HeaderSource } from './headers';
import { refusedTestCall, type TestCallPolicy } from './test-calls';
import { ed25519Verifies, type WebhookPublicKeys } from './public-keys';
import { normaliseBody, verificationKeys, type WebhookSecret } from './verify';

/** Standard Webhooks headers (https://www.standardwebhooks.com); `webhook-id` is our `Webhook-Id`. */
export const STANDARD_WEBHOOK_TIMESTAMP_HEADER = 'Webhook-Timestamp';
export const STANDARD_WEBHOOK_SIGNATURE_HEADER = 'Webhook-Signature';

/** Prefix of a secret as Standard Webhooks libraries take it: `whsec_` + base64 of the key bytes. */
export const STANDARD_WEBHOOKS_SECRET_PREFIX = 'whsec_';

/** Standard Webhooks' tolerance between the sender's and the receiver's clocks. */
export const STANDARD_WEBHOOKS_TOLERANCE_SECONDS = 300;

/**
 * The shared secret in the form Standard Webhooks libraries are configured with
 * (`new Webhook(standardWebhooksSecret(sharedSecret))`): they base64-decode what follows `whsec_`.
 */
export function standardWebhooksSecret(sharedSecret: string): string {
  return STANDARD_WEBHOOKS_SECRET_PREFIX + Buffer.from(sharedSecret, 'utf8').toString('base64');
}

/** Why the Standard Webhooks check refused a callback (the same codes in the Python package). */
export type StandardWebhookRefusalCode = 'missing-headers' | 'invalid-timestamp' | 'invalid-signature' | 'invalid-json' | 'test-call';

export type StandardWebhookVerificationResult =
  | { ok: true; webhookId: string; timestamp: number; payload: unknown }
  | { ok: false; code: StandardWebhookRefusalCode; reason: string };

export interface VerifyStandardWebhookInput {
  /** The request headers: Node's `req.headers`, a plain object, or a Fetch `Headers`. */
  headers: HeaderSource;
  /** The request body exactly as received. */
  rawBody: Buffer | Uint8Array | string;
  /** The shared secret, or several while rotating (any listed `v1` signature of any of them passes). */
  secret?: WebhookSecret;
  /** Or the domain's public keys (its JWK Set): any listed `v1a` (Ed25519) signature by one of them passes. */
  publicKeys?: WebhookPublicKeys;
  now?: Date;
  /** Largest distance between `webhook-timestamp` and the clock; default 300 s. */
  toleranceSeconds?: number;
  /** A Test call (`webhook-id` starting `test_`) is refused unless this is `'accept'`. */
  testCalls?: TestCallPolicy;
}

const refuse = (code: StandardWebhookRefusalCode, reason: string): StandardWebhookVerificationResult => ({ ok: false, code, reason });

/**
 * Checks `webhook-id`, `webhook-timestamp` and `webhook-signature`: passes when any `v1` signature
 * listed (two while a secret is rotated) is HMAC-SHA256 of `"<id>.<timestamp>.<body>"` keyed by the
 * UTF-8 bytes of one of the secrets (or, given `publicKeys`, any `v1a` signature is the Ed25519
 * signature of that text by one of the keys), and the timestamp is within the tolerance of the clock.
 */
export function verifyStandardWebhook(input: VerifyStandardWebhookInput): StandardWebhookVerificationResult {
  const keys = verificationKeys(input, 'verifyStandardWebhook');
  const body = normaliseBody(input.rawBody);
  const tolerance = input.toleranceSeconds ?? STANDARD_WEBHOOKS_TOLERANCE_SECONDS;
  const id = headerValue(input.headers, 'webhook-id');
  const timestamp = headerValue(input.headers, 'webhook-timestamp');
  const signatures = headerValue(input.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return refuse('missing-headers', 'missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,15}$/.test(timestamp)) return refuse('invalid-timestamp', 'webhook-timestamp is not an integer');
  const clock = (input.now ?? new Date()).getTime() / 1000;
  if (Math.abs(clock - Number(timestamp)) > tolerance) return refuse('invalid-timestamp', 'webhook-timestamp is too far from now');

  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  const expected = 'secrets' in keys ? keys.secrets.map((s) => createHmac('sha256', Buffer.from(s, 'utf8')).update(signed).digest()) : [];
  const matches = signatures.split(' ').some((item) => {
    const [version, value] = item.split(',', 2);
    if (version !== ('secrets' in keys ? 'v1' : 'v1a') || value === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
    const given = Buffer.from(value, 'base64');
    if (!('secrets' in keys)) return ed25519Verifies(keys.publicKeys, signed, given);
    return expected.some((mac) => mac.length === given.length && timingSafeEqual(mac, given));
  });
  if (!matches) return refuse('invalid-signature', 'no matching signature');

  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return refuse('invalid-json', 'request body is not valid JSON');
  }
  if (id.startsWith(TEST_WEBHOOK_ID_PREFIX) && refusedTestCall(input.testCalls)) {
    return refuse('test-call', "a Test call, refused: pass testCalls: 'accept' to take it");
  }
  return { ok: true, webhookId: id, timestamp: Number(timestamp), payload };
}
