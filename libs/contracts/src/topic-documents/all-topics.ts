import { TAIL_EVENTS_TOPIC, WEBHOOK_SUBSCRIPTIONS_TOPIC, type TopicContract } from '../kafka/kafka-topics';
import { WEBHOOK_EVENT_TYPES } from '../webhook-events/webhook-event-types';

/** Every topic tailsync produces to or consumes from: its own, and each webhook event type's input and dead letters. */
export const KAFKA_TOPICS: readonly TopicContract[] = [
  TAIL_EVENTS_TOPIC,
  ...WEBHOOK_EVENT_TYPES.flatMap((type) => [type.input, type.deadLetters]),
  WEBHOOK_SUBSCRIPTIONS_TOPIC,
];
