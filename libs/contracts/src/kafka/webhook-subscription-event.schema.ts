import { WEBHOOK_SUBSCRIPTION_EVENTS_SOURCE, webhookSubscriptionCloudEventType } from '../cloudevents';
import { WEBHOOK_SUBSCRIPTION_EVENT_TYPES } from '../webhook-subscription-events';
import { cloudEventHeadersSchema } from './cloud-event-headers.schema';
import { dataByType, DATE_TIME_SCHEMA, DOMAIN_SCHEMA, JSON_SCHEMA_DRAFT_07, messageSchemaId, UUID_SCHEMA, type JsonSchema } from './json-schema';

/** Version of the `tailsync.webhook-subscriptions` value schema. */
export const WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_VERSION = '1.2.0';
export const WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_ID = messageSchemaId('WebhookSubscriptionEvent', WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_VERSION);

const url: JsonSchema = { type: 'string', format: 'uri', description: 'The subscription\'s callback URL.' };
const disabledReason: JsonSchema = { type: 'string', enum: ['gone', 'failing'], description: '`gone`: the receiver answered 410; `failing`: every delivery failed for the configured period.' };
// An operator's disable is a type of its own: `reason` of SubscriptionDisabled cannot take a new value
// (consumers were promised gone | failing), while a new type is one they skip until they know it.
const operatorReason: JsonSchema = { type: 'string', const: 'operator', description: '`operator`: POST /admin/Domains/{domain}/Subscription/Disable.' };
const enabledReason: JsonSchema = {
  type: 'string', enum: ['enable', 'saved'],
  description: '`enable`: POST /WebhookSubscriptions/Enable or POST /admin/Domains/{domain}/Subscription/Enable; `saved`: the subscription was saved again.',
};
const previousSecretValidUntil: JsonSchema = { type: ['string', 'null'], format: 'date-time', description: 'Until when the previous secret still signs callbacks.' };
const kid: JsonSchema = { type: 'string', minLength: 1, description: 'An Ed25519 key\'s id (RFC 7638 thumbprint), as the JWK Set and the JWT header name it.' };
const optionalKid: JsonSchema = { type: ['string', 'null'], minLength: 1, description: 'An Ed25519 key\'s id; null when there is none.' };
const instant = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });
const revokedBy: JsonSchema = {
  type: 'string', enum: ['tenant', 'operator'],
  description: '`tenant`: POST /WebhookSubscriptions/SigningKeys/{kid}/Revoke; `operator`: POST /admin/Domains/{domain}/SigningKeys/{kid}/Revoke.',
};

/**
 * Value of a `tailsync.webhook-subscriptions` message. The contract fixes the envelope and the
 * types; `data` holds the url and the reason where they apply, never a secret.
 */
export const WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA: JsonSchema = {
  $schema: JSON_SCHEMA_DRAFT_07,
  $id: WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_ID,
  title: 'WebhookSubscriptionEvent',
  description: `A change of a domain's webhook subscription. Types: ${WEBHOOK_SUBSCRIPTION_EVENT_TYPES.join(', ')}; skip a type you do not know.`,
  type: 'object',
  required: ['eventId', 'type', 'domain', 'occurredAt', 'data'],
  properties: {
    eventId: { ...UUID_SCHEMA, description: 'The event\'s id: dedupe on it.' },
    type: { type: 'string', minLength: 1, description: 'The event type.' },
    domain: DOMAIN_SCHEMA,
    occurredAt: DATE_TIME_SCHEMA,
    data: { type: 'object', properties: { url, reason: { type: 'string' } }, description: 'The url and the reason where they apply; never a secret.' },
  },
  allOf: dataByType({
    SubscriptionSaved: { type: 'object', required: ['url'], properties: { url } },
    SubscriptionDisabled: { type: 'object', required: ['url', 'reason'], properties: { url, reason: disabledReason } },
    SubscriptionDisabledByOperator: { type: 'object', required: ['url', 'reason'], properties: { url, reason: operatorReason } },
    SubscriptionEnabled: { type: 'object', required: ['url', 'reason'], properties: { url, reason: enabledReason } },
    SecretRotated: { type: 'object', required: ['url', 'previousSecretValidUntil'], properties: { url, previousSecretValidUntil } },
    SigningKeyRotated: {
      type: 'object', required: ['kid', 'signsFrom', 'retiringKid', 'retiresAt'],
      properties: { kid, signsFrom: { ...DATE_TIME_SCHEMA, description: 'When the new key starts signing.' }, retiringKid: optionalKid, retiresAt: instant('When the replaced key leaves the JWK Set.') },
    },
    SigningKeyRevoked: { type: 'object', required: ['kid', 'revokedBy', 'signingKid'], properties: { kid, revokedBy, signingKid: optionalKid } },
  }),
};

export const WEBHOOK_SUBSCRIPTION_EVENT_HEADERS_SCHEMA: JsonSchema = cloudEventHeadersSchema({
  message: 'WebhookSubscriptionEvent',
  version: WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_VERSION,
  source: WEBHOOK_SUBSCRIPTION_EVENTS_SOURCE,
  typePrefix: webhookSubscriptionCloudEventType(''),
  dataschema: WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_ID,
});
