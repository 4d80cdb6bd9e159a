import { Injectable, Logger } from '@nestjs/common';
import type { EndpointDisabledReason } from '@tailsync/contracts';
import { ProblemError } from '@tailsync/service-kit';
import { DISABLED_BY_THE_OPERATOR, mayChange, type SubscriptionActor } from './domain/operator-hold';
import { SubscriptionEventsPublisher } from './subscription-events.publisher';
import type { SealedKeyPair } from './signing-key.store';
import { type Db, type SavedSubscription, type StoredSubscription, type SubscriptionInput, SubscriptionStore } from './subscription.store';
import { previousSecretValidUntil } from './subscription-secrets';

/**
 * A subscription's changes of state, each made in the database with its announcement on
 * `tailsync.webhook-subscriptions` (one transaction; the outbox's relay publishes it): saved,
 * deleted, disabled (gone, failing, by an operator), enabled.
 */
@Injectable()
export class SubscriptionState {
  private readonly logger = new Logger('SubscriptionState');

  constructor(
    private readonly store: SubscriptionStore,
    private readonly events: SubscriptionEventsPublisher,
  ) {}

  /** Disables an active subscription; the subscription when it changed, null when it already was disabled (or is gone). */
  async disable(domain: string, reason: EndpointDisabledReason): Promise<StoredSubscription | null> {
    const changed = await this.events.inTransaction(async (db) => {
      const result = await this.store.disable(domain, reason, db);
      if (result) await this.events.record(db, 'SubscriptionDisabled', domain, { url: result.url, reason });
      return result;
    });
    if (changed) this.logger.warn({ msg: 'webhook subscription disabled', domain, reason });
    return changed;
  }

  /**
   * Announces a subscription the delivery store disabled while recording attempts (its deliveries
   * kept failing). That change is committed with the attempts, so this event follows it: a copy
   * killed in between leaves the subscription disabled without its announcement.
   */
  async announceDisabled(domain: string, url: string, reason: EndpointDisabledReason): Promise<void> {
    this.logger.warn({ msg: 'webhook subscription disabled', domain, reason });
    await this.events.publish('SubscriptionDisabled', domain, { url, reason });
  }

  /**
   * An operator disables the domain's subscription (reason `operator`); one already disabled stays
   * as it is, with its own reason. The subscription as it is now; null when there is none.
   */
  async disableByOperator(domain: string): Promise<StoredSubscription | null> {
    const changed = await this.events.inTransaction(async (db) => {
      const result = await this.store.disable(domain, 'operator', db);
      if (result) await this.events.record(db, 'SubscriptionDisabledByOperator', domain, { url: result.url, reason: 'operator' });
      return result;
    });
    if (!changed) return this.store.get(domain);
    this.logger.warn({ msg: 'webhook subscription disabled', domain, reason: 'operator' });
    return changed;
  }

  /**
   * Creates or updates the domain's subscription (SubscriptionStore.put), announcing what the save
   * changed. An `ed25519` subscription's domain gets its first signing key (from `newKeyPair`) in the
   * same transaction, so no callback is ever attempted without one; any other scheme's domain has
   * its keys leave the JWK Set after `graceSeconds`.
   */
  save(domain: string, input: SubscriptionInput, graceSeconds: number, newKeyPair?: () => SealedKeyPair): Promise<SavedSubscription> {
    return this.events.inTransaction(async (db) => {
      await this.refuseHeld(domain, 'tenant', db);
      if (input.signatureScheme === 'ed25519') {
        if (!newKeyPair) throw new TypeError('SubscriptionState.save: an ed25519 subscription needs newKeyPair');
        await this.store.keys.ensure(domain, newKeyPair, db);
      } else {
        await this.store.keys.withdraw(domain, graceSeconds, db);
      }
      const saved = await this.store.put(domain, input, graceSeconds, db);
      const { url } = saved.subscription;
      await this.events.record(db, 'SubscriptionSaved', domain, { url });
      if (saved.rotated) {
        await this.events.record(db, 'SecretRotated', domain, { url, previousSecretValidUntil: previousSecretValidUntil(saved.subscription)?.toISOString() ?? null });
      }
      if (saved.enabled) await this.events.record(db, 'SubscriptionEnabled', domain, { url, reason: 'saved' });
      return saved;
    });
  }

  /**
   * Enables the domain's subscription (and resets its run of failures); null when there is none.
   * A tenant cannot enable what an operator disabled (a conflict problem).
   */
  async enable(domain: string, actor: SubscriptionActor): Promise<StoredSubscription | null> {
    const result = await this.events.inTransaction(async (db) => {
      await this.refuseHeld(domain, actor, db);
      const enabled = await this.store.enable(domain, db);
      if (enabled?.enabled) await this.events.record(db, 'SubscriptionEnabled', domain, { url: enabled.subscription.url, reason: 'enable' });
      return enabled;
    });
    return result?.subscription ?? null;
  }

  /**
   * Deletes the domain's subscription; false when there was none. Refused while an operator's disable
   * holds (deleting and saving anew would undo it). Its signing keys leave the JWK Set after `graceSeconds`.
   */
  delete(domain: string, graceSeconds: number): Promise<boolean> {
    return this.events.inTransaction(async (db) => {
      await this.refuseHeld(domain, 'tenant', db);
      const deleted = await this.store.delete(domain, db);
      if (deleted) await this.store.keys.withdraw(domain, graceSeconds, db);
      if (deleted) await this.events.record(db, 'SubscriptionDeleted', domain, {});
      return deleted;
    });
  }

  /** A conflict problem when the operator's disable holds against `actor`; the row stays locked for the change that follows. */
  private async refuseHeld(domain: string, actor: SubscriptionActor, db: Db): Promise<void> {
    if (!mayChange(await this.store.lockedState(domain, db), actor)) {
      throw new ProblemError({ kind: 'conflict', title: 'Disabled by the operator', detail: DISABLED_BY_THE_OPERATOR });
    }
  }
}
