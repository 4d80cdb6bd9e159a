import { Logger } from '@nestjs/common';
import type { DisabledReason } from '@tailsync/contracts';
import type { StoredSubscription, SubscriptionStore } from './subscription.store';

/** Changes of a subscription's state that the dispatcher makes on its own (an endpoint gone or failing). */
export class SubscriptionState {
  private readonly logger = new Logger('SubscriptionState');

  constructor(private readonly store: SubscriptionStore) {}

  /** Disables an active subscription; the subscription when it changed, null when it already was disabled (or is gone). */
  async disable(domain: string, reason: DisabledReason): Promise<StoredSubscription | null> {
    const changed = await this.store.disable(domain, reason);
    if (changed) this.logger.warn({ msg: 'webhook subscription disabled', domain, reason });
    return changed;
  }
}
