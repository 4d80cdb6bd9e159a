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
  | 'SecretRotated';

export const WEBHOOK_SUBSCRIPTION_EVENT_TYPES: readonly WebhookSubscriptionEventType[] = [
  'SubscriptionSaved', 'SubscriptionDeleted', 'SubscriptionDisabled', 'SubscriptionDisabledByOperator', 'SubscriptionEnabled', 'SecretRotated',
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
}

export interface WebhookSubscriptionEvent {
  eventId: string;
  type: WebhookSubscriptionEventType;
  domain: string;
  occurredAt: string;
  data: WebhookSubscriptionEventData;
}
