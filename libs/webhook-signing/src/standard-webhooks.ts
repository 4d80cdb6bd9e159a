import { createHmac, timingSafeEqual } from 'node:crypto';
import { TEST_WEBHOOK_ID_PREFIX } from './claims';
import { headerValue, type HeaderSource } from './headers';
import { refusedTestCall, type TestCallPolicy } from './test-calls';
import { normaliseBody, type WebhookSecret } from './verify';

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
  /** The shared secret, or several while rotating (any listed signature of any of them passes). */
  secret: WebhookSecret;
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
 * UTF-8 bytes of one of the secrets, and the timestamp is within the tolerance of the clock.
 */
export function verifyStandardWebhook(input: VerifyStandardWebhookInput): StandardWebhookVerificationResult {
  const keys = (typeof input.secret === 'string' ? [input.secret] : [...input.secret]).map((s) => Buffer.from(s, 'utf8'));
  if (keys.length === 0 || keys.some((k) => k.length === 0)) throw new TypeError('verifyStandardWebhook: secret must be a non-empty string (or a non-empty list of them)');
  const body = normaliseBody(input.rawBody);
  const tolerance = input.toleranceSeconds ?? STANDARD_WEBHOOKS_TOLERANCE_SECONDS;
  const id = headerValue(input.headers, 'webhook-id');
  const timestamp = headerValue(input.headers, 'webhook-timestamp');
  const signatures = headerValue(input.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return refuse('missing-headers', 'missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,15}$/.test(timestamp)) return refuse('invalid-timestamp', 'webhook-timestamp is not an integer');
  const clock = (input.now ?? new Date()).getTime() / 1000;
  if (Math.abs(clock - Number(timestamp)) > tolerance) return refuse('invalid-timestamp', 'webhook-timestamp is too far from now');

  const expected = keys.map((key) => createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest());
  const matches = signatures.split(' ').some((item) => {
    const [version, value] = item.split(',', 2);
    if (version !== 'v1' || value === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
    const given = Buffer.from(value, 'base64');
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
