import { TOPICS } from '../topics';
import { AT_LEAST_ONCE } from './at-least-once';
import { DOMAIN_SCHEMA, type JsonSchema } from './json-schema';
import { TAIL_EVENT_HEADERS_SCHEMA, TAIL_EVENT_SCHEMA, TAIL_EVENT_SCHEMA_VERSION } from './tail-event.schema';
import {
  WEBHOOK_SUBSCRIPTION_EVENT_HEADERS_SCHEMA,
  WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA,
  WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_VERSION,
} from './webhook-subscription-event.schema';

/** A message on a topic: what the AsyncAPI document describes and the schema files export. */
export interface MessageContract {
  /** Names the schema files (`libs/contracts/schemas/<name>/<version>.json`). */
  name: string;
  title: string;
  version: string;
  contentType: string;
  key: JsonSchema;
  payload: JsonSchema;
  headers: JsonSchema | null;
}

/**
 * A topic as other teams see it. `tailsync` says what tailsync does with it: `send` (we produce,
 * others consume: a schema may only narrow) or `receive` (others produce, we consume: it may
 * only widen).
 */
export interface TopicContract {
  channelId: string;
  topic: string;
  tailsync: 'send' | 'receive';
  numPartitions: number;
  /** Topic configuration tailsync creates it with (beyond the broker's defaults). */
  config: Record<string, string>;
  description: string;
  operationId: string;
  operationTitle: string;
  operationDescription: string;
  /** Consumer group of tailsync's consumer (`receive` only). */
  groupId: string | null;
  message: MessageContract;
}

export const TAIL_EVENTS_TOPIC: TopicContract = {
  channelId: 'tailEvents',
  topic: TOPICS.tailEvents,
  tailsync: 'send',
  numPartitions: 6,
  // Kept for ever: a new consumer rebuilds its state from the start of the topic.
  config: { 'retention.ms': '-1', 'cleanup.policy': 'delete' },
  description:
    'Every event of every tail, published by tail-sync from its event store (never lost, never blocking a write). ' +
    'Key `<domain>:<tailId>`: all events of one tail go to one partition, in the order they happened; ' +
    'there is no order between tails. ' +
    `${AT_LEAST_ONCE} Retention: unlimited (\`retention.ms\` -1, no compaction), so the topic holds every tail's whole history from its creation. ` +
    'Produced as CloudEvents (Kafka binding, binary mode): the `ce_*` headers describe the event; the value is the JSON below.',
  operationId: 'publishTailEvents',
  operationTitle: 'tail-sync publishes tail events',
  operationDescription: 'One message per event, with acks=all, after the event is stored.',
  groupId: null,
  message: {
    name: 'TailEvent',
    title: 'A tail event',
    version: TAIL_EVENT_SCHEMA_VERSION,
    contentType: 'application/json',
    key: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}:[1-9][0-9]*$', description: '`<domain>:<tailId>`.' },
    payload: TAIL_EVENT_SCHEMA,
    headers: TAIL_EVENT_HEADERS_SCHEMA,
  },
};

export const WEBHOOK_SUBSCRIPTIONS_TOPIC: TopicContract = {
  channelId: 'webhookSubscriptions',
  topic: TOPICS.webhookSubscriptions,
  tailsync: 'send',
  numPartitions: 6,
  config: {},
  description:
    'Changes of webhook subscriptions (saved, deleted, disabled, enabled, secret rotated), for operators\' alerts. Key: the domain (one domain\'s changes in order). ' +
    'Published after the change is stored; a broker down past the producer\'s retries loses the message (counted in webhook_subscription_events_total{outcome="failed"}), never the change. ' +
    'A message may come again after a producer retry (same `eventId`): dedupe on it. Produced as CloudEvents (Kafka binding, binary mode). Retention: the broker\'s default.',
  operationId: 'publishWebhookSubscriptionEvents',
  operationTitle: 'webhook-dispatcher publishes subscription changes',
  operationDescription: 'One message per change, after it is stored.',
  groupId: null,
  message: {
    name: 'WebhookSubscriptionEvent',
    title: 'A webhook subscription changed',
    version: WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_VERSION,
    contentType: 'application/json',
    key: { ...DOMAIN_SCHEMA, description: 'The domain.' },
    payload: WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA,
    headers: WEBHOOK_SUBSCRIPTION_EVENT_HEADERS_SCHEMA,
  },
};
