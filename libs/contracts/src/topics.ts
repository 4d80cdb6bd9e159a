/** Kafka topics other services produce to or consume from. */
export const TOPICS = {
  riskAssessmentExecuted: 'product.risk-assessment-executed',
  riskAssessmentExecutedDlq: 'product.risk-assessment-executed.dlq',
  tailEvents: 'tailsync.tail-events',
  webhookSubscriptions: 'tailsync.webhook-subscriptions',
} as const;

export const RISK_ASSESSMENT_EXECUTED = 'Product.RiskAssessmentExecuted';

/**
 * The consumer groups of the dispatcher's backfills (one per backfill) start with this, after its
 * events group (`WEBHOOK_EVENTS_GROUP_ID`): its Kafka ACLs allow the prefix.
 */
export const backfillGroupPrefix = (eventsGroup: string): string => `${eventsGroup}-backfill-`;
