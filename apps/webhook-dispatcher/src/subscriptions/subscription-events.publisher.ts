import type { WebhookSubscriptionEvent, WebhookSubscriptionEventData, WebhookSubscriptionEventType } from '@tailsync/contracts';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { SubscriptionEventsRelay, type SubscriptionEventsRelayOptions } from './subscription-events.relay';

/**
 * Announces a subscription's changes of state on `tailsync.webhook-subscriptions`: each event is
 * stored in the outbox (so no request waits for the broker, and a broker that is down delays the
 * event without losing it) and the relay puts it on the topic.
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

  async publish(type: WebhookSubscriptionEventType, domain: string, data: WebhookSubscriptionEventData): Promise<void> {
    const event: WebhookSubscriptionEvent = { eventId: randomUUID(), type, domain, occurredAt: new Date().toISOString(), data };
    await this.pool.query('insert into webhook_subscription_event_outbox (domain, event) values ($1, $2)', [domain, event]);
    this.relay.wake();
  }
}
