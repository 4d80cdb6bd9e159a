import type { WebhookSubscriptionEvent, WebhookSubscriptionEventData, WebhookSubscriptionEventType } from '@tailsync/contracts';
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@tailsync/service-kit';
import type { Pool } from 'pg';
import { SubscriptionEventsRelay, type SubscriptionEventsRelayOptions } from './subscription-events.relay';
import type { Db } from './subscription.store';

/**
 * Announces a subscription's changes of state on `tailsync.webhook-subscriptions`: each event is
 * stored in the outbox, in the transaction of the change it reports (so no request waits for the
 * broker, and a broker that is down delays the event without losing it), and the relay puts it on
 * the topic.
 */
export class SubscriptionEventsPublisher {
  private readonly relay: SubscriptionEventsRelay;

  constructor(
    private readonly pool: Pool,
    options: SubscriptionEventsRelayOptions,
  ) {
    this.relay = new SubscriptionEventsRelay(pool, options);
  }

  start(): Promise<void> {
    return this.relay.start();
  }

  stop(): Promise<void> {
    return this.relay.stop();
  }

  /** Stores an event with the change it reports (`db`: that change's transaction); `relayNow()` once it is committed. */
  async record(db: Db, type: WebhookSubscriptionEventType, domain: string, data: WebhookSubscriptionEventData): Promise<void> {
    const event: WebhookSubscriptionEvent = { eventId: randomUUID(), type, domain, occurredAt: new Date().toISOString(), data };
    await db.query('insert into webhook_subscription_event_outbox (domain, event) values ($1, $2)', [domain, event]);
  }

  /** Stores an event about a change already committed, and relays it now. */
  async publish(type: WebhookSubscriptionEventType, domain: string, data: WebhookSubscriptionEventData): Promise<void> {
    await this.record(this.pool, type, domain, data);
    this.relayNow();
  }

  /** Events were committed: relay them now rather than at the end of the relay's pause. */
  relayNow(): void {
    this.relay.wake();
  }

  /** Runs a change and the events it records in one transaction, then relays the events. */
  async inTransaction<T>(work: (db: Db) => Promise<T>): Promise<T> {
    const result = await inTransaction(this.pool, work);
    this.relayNow();
    return result;
  }
}
