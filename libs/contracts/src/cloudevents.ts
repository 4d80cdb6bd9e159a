/**
 * CloudEvents 1.0, Kafka protocol binding, binary content mode: the event's attributes travel as
 * `ce_`-prefixed headers and the value is the data itself, so a consumer unaware of CloudEvents
 * sees the same value as before.
 */
export const CLOUDEVENTS_SPEC_VERSION = '1.0';

/** Header names of the attributes we set (the binding maps `datacontenttype` to `content-type`). */
export const CLOUDEVENTS_HEADERS = {
  specversion: 'ce_specversion',
  id: 'ce_id',
  source: 'ce_source',
  type: 'ce_type',
  time: 'ce_time',
  dataschema: 'ce_dataschema',
  contentType: 'content-type',
} as const;

/** `ce_source` of tail events: the process that produces them (ids are UUIDs, unique in any source). */
export const TAIL_EVENTS_SOURCE = '/tailsync/tail-sync';

/** `ce_source` of webhook subscription events. */
export const WEBHOOK_SUBSCRIPTION_EVENTS_SOURCE = '/tailsync/webhook-dispatcher';

export const JSON_CONTENT_TYPE = 'application/json';

/** `ce_type` of a tail event: `tailsync.tail.` + the value's `type` (e.g. `tailsync.tail.TailCreated`). */
export function tailEventCloudEventType(type: string): string {
  return `tailsync.tail.${type}`;
}

/** `ce_type` of a webhook subscription event (e.g. `tailsync.webhook-subscription.SubscriptionSaved`). */
export function webhookSubscriptionCloudEventType(type: string): string {
  return `tailsync.webhook-subscription.${type}`;
}
