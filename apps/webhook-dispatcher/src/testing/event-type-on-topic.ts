import { RISK_ASSESSMENT_EXECUTED_EVENT, type WebhookEventType } from '@tailsync/contracts';

/** `type` read from `topic` (and its dead letters sent to `<topic>.dlq`): a spec's own topics, so specs never share offsets. */
export function eventTypeOnTopic(topic: string, type: WebhookEventType = RISK_ASSESSMENT_EXECUTED_EVENT): WebhookEventType {
  return { ...type, input: { ...type.input, topic }, deadLetters: { ...type.deadLetters, topic: `${topic}.dlq` } };
}
