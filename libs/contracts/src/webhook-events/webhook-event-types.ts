import { RISK_ASSESSMENT_EXECUTED_EVENT } from './risk-assessment-executed/risk-assessment-executed.event';
import type { WebhookEventType } from './webhook-event-type';

/** Every event type subscriptions may list and the dispatcher delivers: add one here (docs/extending.md). */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [RISK_ASSESSMENT_EXECUTED_EVENT];

/** The names a subscription's `eventNames` may contain. */
export const WEBHOOK_EVENT_NAMES: readonly string[] = WEBHOOK_EVENT_TYPES.map((type) => type.name);
