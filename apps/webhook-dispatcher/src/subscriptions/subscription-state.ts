import { Logger } from '@nestjs/common';
import type { EndpointDisabledReason } from '@tailsync/contracts';
import type { SubscriptionEventsPublisher } from './subscription-events.publisher';
import type { SavedSubscription, StoredSubscription, SubscriptionStore } from './subscription.store';

/**
 * A subscription's changes of state, each made in the database and then announced on
 * `tailsync.webhook-subscriptions` (and counted): saved, deleted, disabled (gone, failing, by an
 * operator), enabled.
 */
export class SubscriptionState {
  private readonly logger = new Logger('SubscriptionState');

  constructor(
    private readonly store: SubscriptionStore,
    private readonly events: SubscriptionEventsPublisher,
  ) {}

  /** Disables an active subscription; the subscription when it changed, null when it already was disabled (or is gone). */
  async disable(domain: string, reason: EndpointDisabledReason): Promise<StoredSubscription | null> {
    const changed = await this.store.disable(domain, reason);
    if (changed) await this.announceDisabled(changed.domain, changed.url, reason);
    return changed;
  }

  /** Announces a subscription the delivery store disabled while recording attempts (its deliveries kept failing). */
  async announceDisabled(domain: string, url: string, reason: EndpointDisabledReason): Promise<void> {
    this.logger.warn({ msg: 'webhook subscription disabled', domain, reason });
    await this.events.publish('SubscriptionDisabled', domain, { url, reason });
  }

  /**
   * An operator disables the domain's subscription (reason `operator`); one already disabled stays
   * as it is, with its own reason. The subscription as it is now; null when there is none.
   */
  async disableByOperator(domain: string): Promise<StoredSubscription | null> {
    const changed = await this.store.disable(domain, 'operator');
    if (!changed) return this.store.get(domain);
    this.logger.warn({ msg: 'webhook subscription disabled', domain, reason: 'operator' });
    await this.events.publish('SubscriptionDisabledByOperator', domain, { url: changed.url, reason: 'operator' });
    return changed;
  }

  /** Announces what a save changed. */
  async saved({ subscription, rotated, enabled }: SavedSubscription, previousSecretValidUntil: Date | null): Promise<void> {
    const { domain, url } = subscription;
    await this.events.publish('SubscriptionSaved', domain, { url });
    if (rotated) await this.events.publish('SecretRotated', domain, { url, previousSecretValidUntil: previousSecretValidUntil?.toISOString() ?? null });
    if (enabled) await this.events.publish('SubscriptionEnabled', domain, { url, reason: 'saved' });
  }

  /** Enables the domain's subscription (and resets its run of failures); null when there is none. */
  async enable(domain: string): Promise<StoredSubscription | null> {
    const result = await this.store.enable(domain);
    if (result?.enabled) await this.events.publish('SubscriptionEnabled', domain, { url: result.subscription.url, reason: 'enable' });
    return result?.subscription ?? null;
  }

  /** Deletes the domain's subscription; false when there was none. */
  async delete(domain: string): Promise<boolean> {
    const deleted = await this.store.delete(domain);
    if (deleted) await this.events.publish('SubscriptionDeleted', domain, {});
    return deleted;
  }
}
