import type { WebhookEventType } from '@tailsync/contracts';
import { CommittableOffsets } from './committable-offsets';
import { InheritedOffsets } from './inherited-offsets';

/**
 * What the event consumer keeps per input topic it reads (one per webhook event type): the type
 * its messages are parsed as, the offsets it may commit, and the offsets its partitions' previous
 * owner may have attempted.
 */
export class InputTopic {
  readonly offsets: CommittableOffsets;
  readonly inherited = new InheritedOffsets();

  constructor(
    readonly type: WebhookEventType,
    /** Told when a committable position moved. */
    moved: () => void,
  ) {
    this.offsets = new CommittableOffsets(type.input.topic, moved);
  }

  get topic(): string {
    return this.type.input.topic;
  }
}
