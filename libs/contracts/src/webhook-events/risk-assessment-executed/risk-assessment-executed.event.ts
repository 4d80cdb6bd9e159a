import { deadLetterTopicFor } from '../../kafka/dead-letter-topic';
import { DOMAIN_SCHEMA } from '../../kafka/json-schema';
import type { TopicContract } from '../../kafka/kafka-topics';
import type { WebhookEventType } from '../webhook-event-type';
import { RISK_ASSESSMENT_EXECUTED_SCHEMA, RISK_ASSESSMENT_EXECUTED_SCHEMA_VERSION } from './risk-assessment-executed.schema';

/** The event type's name: what subscriptions list, callbacks carry as `eventName`. */
export const RISK_ASSESSMENT_EXECUTED = 'Product.RiskAssessmentExecuted';

export const RISK_ASSESSMENT_EXECUTED_TOPIC: TopicContract = {
  channelId: 'riskAssessmentExecuted',
  topic: 'product.risk-assessment-executed',
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

export const RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC = deadLetterTopicFor(RISK_ASSESSMENT_EXECUTED_TOPIC, { operationId: 'deadLetterRiskAssessments', what: 'risk assessment' });

/** The product's risk assessments (the interface's only event until now). */
export const RISK_ASSESSMENT_EXECUTED_EVENT: WebhookEventType = {
  name: RISK_ASSESSMENT_EXECUTED,
  noun: 'risk assessment',
  input: RISK_ASSESSMENT_EXECUTED_TOPIC,
  deadLetters: RISK_ASSESSMENT_EXECUTED_DLQ_TOPIC,
  callback: {
    operationId: 'receiveRiskAssessmentExecuted',
    summary: 'A risk assessment was executed: one signed POST to your subscription URL per attempt',
    exampleData: { score: 42, tail: 'N123AB' },
  },
};
