/** tailsync's own Kafka topics (a webhook event type's topics are in its folder: webhook-events/). */
export const TOPICS = {
  tailEvents: 'tailsync.tail-events',
  webhookSubscriptions: 'tailsync.webhook-subscriptions',
} as const;

/**
 * The consumer groups of the dispatcher's backfills (one per backfill) start with this, after its
 * events group (`WEBHOOK_EVENTS_GROUP_ID`): its Kafka ACLs allow the prefix.
 */
export const backfillGroupPrefix = (eventsGroup: string): string => `${eventsGroup}-backfill-`;
