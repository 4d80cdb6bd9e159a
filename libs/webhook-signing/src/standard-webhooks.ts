import { createHmac } from 'node:crypto';

/** Standard Webhooks headers (https://www.standardwebhooks.com); `webhook-id` is our `Webhook-Id`. */
export const STANDARD_WEBHOOK_TIMESTAMP_HEADER = 'Webhook-Timestamp';
export const STANDARD_WEBHOOK_SIGNATURE_HEADER = 'Webhook-Signature';

/** Prefix of a secret as Standard Webhooks libraries take it: `whsec_` + base64 of the key bytes. */
export const STANDARD_WEBHOOKS_SECRET_PREFIX = 'whsec_';

/**
 * One Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `"<id>.<timestamp>.<body>"`,
 * keyed by the UTF-8 bytes of the shared secret (the JWT's key too).
 */
export function standardWebhookSignature(secret: string, webhookId: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${webhookId}.${timestamp}.`).update(body, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/**
 * The shared secret in the form Standard Webhooks libraries are configured with
 * (`new Webhook(standardWebhooksSecret(sharedSecret))`): they base64-decode what follows `whsec_`.
 */
export function standardWebhooksSecret(sharedSecret: string): string {
  return STANDARD_WEBHOOKS_SECRET_PREFIX + Buffer.from(sharedSecret, 'utf8').toString('base64');
}
