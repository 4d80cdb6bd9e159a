import type { JwtService } from '@nestjs/jwt';
import { TEST_CALL_ID_PREFIX } from './claims';
import { signWebhook, webhookHeaders } from './sign';
import { STANDARD_WEBHOOK_SIGNATURE_HEADER, STANDARD_WEBHOOK_TIMESTAMP_HEADER, standardWebhookSignature } from './standard-webhooks';

export interface SignCallbackInput {
  /** The exact JSON text sent as the body. */
  body: string;
  /** The secrets that sign: the current one first (it alone signs the JWT), then any still in their grace period. */
  secrets: readonly [string, ...string[]];
  domain: string;
  eventName: string;
  /** `Webhook-Id`: the event id (the same on every attempt), or `test_<uuid>` for a Test call. */
  webhookId: string;
  /** 1-based attempt number. */
  attempt: number;
  /** Clock of the attempt; defaults to now. */
  now?: Date;
}

/**
 * Every header of one callback attempt: the contract's (`Authorization: Token <JWT>`, `Webhook-Id`,
 * `Webhook-Attempt`, …) and the Standard Webhooks pair, whose timestamp is the JWT's `iat` (one clock
 * reading for both, so a receiver checking either sees the same moment).
 */
export function signCallback(input: SignCallbackInput, jwt: JwtService): Record<string, string> {
  const now = input.now ?? new Date();
  const [current] = input.secrets;
  // A Test call is known by its id, and says so in the token too (a header alone is not signed there).
  const test = input.webhookId.startsWith(TEST_CALL_ID_PREFIX) ? (true as const) : undefined;
  const token = signWebhook({ body: input.body, secret: current, domain: input.domain, eventName: input.eventName, now, test }, jwt);
  const timestamp = Math.floor(now.getTime() / 1000);
  const signatures = input.secrets.map((secret) => standardWebhookSignature(secret, input.webhookId, timestamp, input.body));
  return {
    ...webhookHeaders({ token, eventId: input.webhookId, attempt: input.attempt }),
    [STANDARD_WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [STANDARD_WEBHOOK_SIGNATURE_HEADER]: signatures.join(' '),
  };
}
