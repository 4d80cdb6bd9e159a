import type { TopicContract } from '../kafka/kafka-topics';

/**
 * One kind of event the webhook-dispatcher delivers: the topic other services produce it to (with
 * its message schema), the `.dlq` topic for what it refuses, and what integrators receive. The
 * dispatcher, the subscription rules, the Test call, the lag metrics, the Kafka ACLs and both API
 * documents follow the registry of these (`WEBHOOK_EVENT_TYPES`); docs/extending.md says how to add one.
 *
 * Every input message is `{ eventId, domain, occurredAt, data }` (its schema may narrow `data`), keyed
 * by the domain; its callback body is that with `eventName` added (contract, "Events and delivery").
 */
export interface WebhookEventType {
  /** What subscriptions list in `eventNames`, callbacks carry as `eventName` and tokens as `evt`. */
  readonly name: string;
  /** One event in words (`risk assessment`): how the alert rules and the operators' texts name it. */
  readonly noun: string;
  /** The topic the events come from, with the schema each message must meet. */
  readonly input: TopicContract;
  /** Where refused messages of `input` go. */
  readonly deadLetters: TopicContract;
  /** How the callback is shown in the OpenAPI document's `webhooks`. */
  readonly callback: {
    readonly operationId: string;
    readonly summary: string;
    /** An example of the callback's `data`. */
    readonly exampleData: Record<string, unknown>;
  };
}

/** An input message of any webhook event type, once it met its schema. */
export interface WebhookEventMessage {
  eventId: string;
  domain: string;
  occurredAt: string;
  data: Record<string, unknown>;
}
