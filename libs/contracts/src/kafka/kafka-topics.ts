import { TOPICS } from '../topics';
import { DEAD_LETTER_HEADERS_SCHEMA, DEAD_LETTER_SCHEMA, DEAD_LETTER_SCHEMA_VERSION } from './dead-letter.schema';
import { DOMAIN_SCHEMA, type JsonSchema } from './json-schema';
import { RISK_ASSESSMENT_EXECUTED_SCHEMA, RISK_ASSESSMENT_EXECUTED_SCHEMA_VERSION } from './risk-assessment-executed.schema';
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

const DELIVERY =
  'Delivery is at least once: after a crash a message may come again (same `eventId`, same key, same value); ' +
  'consumers dedupe on `eventId`.';

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
    `${DELIVERY} Retention: unlimited (\`retention.ms\` -1, no compaction), so the topic holds every tail's whole history from its creation. ` +
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

export const RISK_ASSESSMENT_EXECUTED_TOPIC: TopicContract = {
  channelId: 'riskAssessmentExecuted',
  topic: TOPICS.riskAssessmentExecuted,
  tailsync: 'receive',
  numPartitions: 6,
  config: {},
  description:
    'Risk assessments executed, produced by the product; the webhook-dispatcher delivers each to the domain\'s subscription. ' +
    'Key: the domain (messages of one domain stay in order; an empty key is accepted). ' +
    'A message that is not valid JSON, or fails the schema below, or whose key is not its domain, goes to the `.dlq` topic with the reason and never blocks its partition. ' +
    'The dispatcher commits an offset only after the deliveries of the messages before it are stored: at least once; a message sent again with the same `eventId` is delivered once. ' +
    'Retention: the broker\'s default; the dispatcher reads it within seconds.',
  operationId: 'receiveRiskAssessments',
  operationTitle: 'webhook-dispatcher consumes risk assessments',
  operationDescription: 'Consumer group `webhook-dispatcher-events` (`WEBHOOK_EVENTS_GROUP_ID`), from the earliest offset when the group is new.',
  groupId: 'webhook-dispatcher-events',
  message: {
    name: 'RiskAssessmentExecuted',
    title: 'A risk assessment was executed',
    version: RISK_ASSESSMENT_EXECUTED_SCHEMA_VERSION,
    contentType: 'application/json',
    key: { ...DOMAIN_SCHEMA, description: 'The domain (equal to the value\'s `domain`), or empty.' },
    payload: RISK_ASSESSMENT_EXECUTED_SCHEMA,
    headers: null,
  },
};

export const RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC: TopicContract = {
  channelId: 'riskAssessmentExecutedDlq',
  topic: TOPICS.riskAssessmentExecutedDlq,
  tailsync: 'send',
  numPartitions: 1,
  config: {},
  description:
    'Messages of `product.risk-assessment-executed` the webhook-dispatcher refused, for the producing team to inspect: ' +
    'the original key and value byte for byte, and `dlq-*` headers with the reason and where it came from. ' +
    `${DELIVERY.replace('`eventId`', 'the source partition and offset')} Retention: the broker's default.`,
  operationId: 'deadLetterRiskAssessments',
  operationTitle: 'webhook-dispatcher dead-letters refused risk assessments',
  operationDescription: 'Sent with acks=all before the refused message\'s offset is committed.',
  groupId: null,
  message: {
    name: 'RiskAssessmentExecutedDeadLetter',
    title: 'A refused risk assessment message',
    version: DEAD_LETTER_SCHEMA_VERSION,
    contentType: 'application/octet-stream',
    key: { type: 'string', description: 'The refused message\'s key, unchanged.' },
    payload: DEAD_LETTER_SCHEMA,
    headers: DEAD_LETTER_HEADERS_SCHEMA,
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

/** Every topic tailsync produces to or consumes from. */
export const KAFKA_TOPICS: readonly TopicContract[] = [TAIL_EVENTS_TOPIC, RISK_ASSESSMENT_EXECUTED_TOPIC, RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC, WEBHOOK_SUBSCRIPTIONS_TOPIC];
