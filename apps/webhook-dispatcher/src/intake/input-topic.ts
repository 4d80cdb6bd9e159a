import type { WebhookEventType } from '@tailsync/contracts';
import { CommittableOffsets } from './committable-offsets';
import { eventMessageParser, type EventMessageParser } from './domain/event-message';
import { InheritedOffsets } from './inherited-offsets';

/**
 * What the event consumer keeps per input topic it reads (one per webhook event type): the type
 * its messages are parsed as and its parser, the offsets it may commit, and the offsets its
 * partitions' previous owner may have attempted.
 */
export class InputTopic {
  readonly offsets: CommittableOffsets;
  readonly parse: EventMessageParser;
  readonly inherited = new InheritedOffsets();

  constructor(
    readonly type: WebhookEventType,
    /** Told when a committable position moved. */
    moved: () => void,
  ) {
    this.offsets = new CommittableOffsets(type.input.topic, moved);
    this.parse = eventMessageParser(type);
  }

  get topic(): string {
    return this.type.input.topic;
  }
}
