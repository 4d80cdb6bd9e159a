import { DOMAIN_SCHEMA, ISO_8601_DATE_TIME_SCHEMA, JSON_SCHEMA_DRAFT_07, messageSchemaId, UUID_SCHEMA, type JsonSchema } from '../../kafka/json-schema';

/** Version of the `product.risk-assessment-executed` value schema (what producers must send). */
export const RISK_ASSESSMENT_EXECUTED_SCHEMA_VERSION = '1.0.0';

/**
 * Value of a `product.risk-assessment-executed` message (`RiskAssessmentExecutedMessage`). The
 * webhook-dispatcher validates every message with it; one that fails goes to the `.dlq` topic
 * with the validator's reason. Besides the schema: a non-empty key must equal `domain`.
 */
export const RISK_ASSESSMENT_EXECUTED_SCHEMA: JsonSchema = {
  $schema: JSON_SCHEMA_DRAFT_07,
  $id: messageSchemaId('RiskAssessmentExecuted', RISK_ASSESSMENT_EXECUTED_SCHEMA_VERSION),
  title: 'RiskAssessmentExecuted',
  description: 'A risk assessment was executed for a domain: delivered to the domain\'s webhook subscription as `Product.RiskAssessmentExecuted`.',
  type: 'object',
  required: ['eventId', 'domain', 'occurredAt', 'data'],
  properties: {
    eventId: { ...UUID_SCHEMA, description: 'The event\'s id: the callback\'s `Webhook-Id`; a message sent again with the same id is delivered once.' },
    domain: { ...DOMAIN_SCHEMA, description: 'The domain whose subscription is notified.' },
    occurredAt: { ...ISO_8601_DATE_TIME_SCHEMA, description: 'When the assessment ran: ISO-8601 with a time zone, seconds optional.' },
    data: { type: 'object', description: 'Passed to the subscriber unchanged, as the callback body\'s `data`.' },
  },
};
