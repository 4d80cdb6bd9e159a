/** Kafka topics other services produce to or consume from. */
export const TOPICS = {
  riskAssessmentExecuted: 'product.risk-assessment-executed',
  riskAssessmentExecutedDlq: 'product.risk-assessment-executed.dlq',
  tailEvents: 'tailsync.tail-events',
  webhookSubscriptions: 'tailsync.webhook-subscriptions',
} as const;

export const RISK_ASSESSMENT_EXECUTED = 'Product.RiskAssessmentExecuted';
