import { AT_LEAST_ONCE } from './at-least-once';
import { deadLetterSchemas, DEAD_LETTER_SCHEMA_VERSION } from './dead-letter.schema';
import type { TopicContract } from './kafka-topics';

/**
 * The `.dlq` topic of an input topic: where the dispatcher puts the messages of `input` it refuses,
 * byte for byte with `dlq-*` headers. Every webhook event type has one, described the same way.
 */
export function deadLetterTopicFor(input: TopicContract, names: { operationId: string; what: string }): TopicContract {
  const messageName = `${input.message.name}DeadLetter`;
  const schemas = deadLetterSchemas(messageName);
  return {
    channelId: `${input.channelId}Dlq`,
    topic: `${input.topic}.dlq`,
    tailsync: 'send',
    numPartitions: 1,
    config: {},
    description:
      `Messages of \`${input.topic}\` the webhook-dispatcher refused, for the producing team to inspect: ` +
      'the original key and value byte for byte, and `dlq-*` headers with the reason and where it came from. ' +
      `${AT_LEAST_ONCE.replace('`eventId`', 'the source partition and offset')} Retention: the broker's default.`,
    operationId: names.operationId,
    operationTitle: `webhook-dispatcher dead-letters refused ${names.what}s`,
    operationDescription: 'Sent with acks=all before the refused message\'s offset is committed.',
    groupId: null,
    message: {
      name: messageName,
      title: `A refused ${names.what} message`,
      version: DEAD_LETTER_SCHEMA_VERSION,
      contentType: 'application/octet-stream',
      key: { type: 'string', description: 'The refused message\'s key, unchanged.' },
      payload: schemas.payload,
      headers: schemas.headers,
    },
  };
}
