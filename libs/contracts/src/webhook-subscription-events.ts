/**
 * Operational events of webhook subscriptions, on `TOPICS.webhookSubscriptions`
 * (`tailsync.webhook-subscriptions`), key = the domain. They carry a url and a reason where they
 * apply, never a secret.
 */
export type WebhookSubscriptionEventType =
  | 'SubscriptionSaved'
  | 'SubscriptionDeleted'
  | 'SubscriptionDisabled'
  | 'SubscriptionDisabledByOperator'
  | 'SubscriptionEnabled'
  | 'SecretRotated'
  | 'SigningKeyRotated'
  | 'SigningKeyRevoked';

export const WEBHOOK_SUBSCRIPTION_EVENT_TYPES: readonly WebhookSubscriptionEventType[] = [
  'SubscriptionSaved', 'SubscriptionDeleted', 'SubscriptionDisabled', 'SubscriptionDisabledByOperator', 'SubscriptionEnabled', 'SecretRotated',
  'SigningKeyRotated', 'SigningKeyRevoked',
];

export interface WebhookSubscriptionEventData {
  /** The subscription url (every type but SubscriptionDeleted). */
  url?: string;
  /**
   * Why it was disabled: `gone` or `failing` (SubscriptionDisabled), `operator`
   * (SubscriptionDisabledByOperator); `enable` or `saved` (SubscriptionEnabled).
   */
  reason?: string;
  /** Until when the previous secret still signs (SecretRotated). */
  previousSecretValidUntil?: string | null;
  /** The Ed25519 key published by the rotation (SigningKeyRotated), or taken out of the JWK Set (SigningKeyRevoked). */
  kid?: string;
  /** When the rotation's new key starts signing (SigningKeyRotated). */
  signsFrom?: string;
  /** The key the rotation replaces, and when it leaves the JWK Set (SigningKeyRotated; null for a domain's first key). */
  retiringKid?: string | null;
  retiresAt?: string | null;
  /** Who revoked the key: `tenant` (the domain) or `operator` (the admin API) (SigningKeyRevoked). */
  revokedBy?: 'tenant' | 'operator';
  /** The key that signs after the revocation; null when the subscription does not sign with Ed25519 (SigningKeyRevoked). */
  signingKid?: string | null;
}

export interface WebhookSubscriptionEvent {
  eventId: string;
  type: WebhookSubscriptionEventType;
  domain: string;
  occurredAt: string;
  data: WebhookSubscriptionEventData;
}
