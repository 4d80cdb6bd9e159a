import { Logger } from '@nestjs/common';
import { CLOUDEVENTS_HEADERS as CE, CLOUDEVENTS_SPEC_VERSION, JSON_CONTENT_TYPE, TOPICS, WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_ID,
  WEBHOOK_SUBSCRIPTION_EVENTS_SOURCE, webhookSubscriptionCloudEventType, type WebhookSubscriptionEvent } from '@tailsync/contracts';
import { advisoryLockKey, countingKafkaLogs, FAILOVER_CLIENT, idempotentProducer, type KafkaConnection, LeaderLock, metricsRegistry, PollingLoop, registeredMetric, RenewingProducer } from '@tailsync/service-kit';
import { Kafka, logLevel } from 'kafkajs';
import type { Pool } from 'pg';
import { Counter } from 'prom-client';

export interface SubscriptionEventsRelayOptions {
  kafka: KafkaConnection;
  clientId: string;
  /** Default `tailsync.webhook-subscriptions`. */
  topic?: string;
}

const BATCH = 100;
const IDLE_MS = 1_000;

/**
 * Puts the operational events waiting in `webhook_subscription_event_outbox` on
 * `tailsync.webhook-subscriptions` (key = domain), oldest first, and removes them once the broker
 * has them: at least once (a copy killed between the two sends them again; consumers dedupe on
 * `eventId`). One copy relays at a time (a PostgreSQL advisory lock), so a domain's events keep
 * their order. Counted in `webhook_subscription_events_total{type,outcome="published"}`.
 */
export class SubscriptionEventsRelay {
  private readonly logger = new Logger('SubscriptionEventsRelay');
  private readonly kafka: Kafka;
  private producer: RenewingProducer | undefined;
  private readonly topic: string;
  private readonly lock: LeaderLock;
  private readonly loop: PollingLoop;
  private readonly counter = registeredMetric(
    'webhook_subscription_events_total',
    () =>
      new Counter({
        name: 'webhook_subscription_events_total',
        help: 'Changes of state of webhook subscriptions (SubscriptionDisabled, …) published on tailsync.webhook-subscriptions, by outcome',
        labelNames: ['type', 'outcome'] as const,
        registers: [metricsRegistry],
      }),
  );

  constructor(pool: Pool, options: SubscriptionEventsRelayOptions) {
    this.topic = options.topic ?? TOPICS.webhookSubscriptions;
    this.kafka = new Kafka({ ...options.kafka, clientId: options.clientId, logLevel: logLevel.WARN, logCreator: countingKafkaLogs('subscription-events'), ...FAILOVER_CLIENT });
    // Scoped by the pool's session options (its search_path), so copies sharing one outbox table share the lock.
    const scope = `tailsync.webhook-subscription-events:${pool.options.options ?? ''}`;
    this.lock = new LeaderLock(pool, advisoryLockKey(scope));
    this.loop = new PollingLoop(() => this.turn(), {
      idleMs: IDLE_MS,
      errorBackoffMs: IDLE_MS,
      onError: (error) => this.logger.warn({ msg: 'subscription events not relayed yet', error: (error as Error).message }),
    });
  }

  async start(): Promise<void> {
    // A send that fails for good leaves a new producer for the next turn (RenewingProducer): the outbox row is sent again.
    this.producer = new RenewingProducer(() => idempotentProducer(this.kafka));
    await this.producer.connect();
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.lock.release();
    await this.producer?.disconnect().catch(() => undefined);
  }

  /** An event is waiting: relay it now rather than at the end of the pause. */
  wake(): void {
    this.loop.wake();
  }

  private async turn(): Promise<'caught-up' | 'more' | { pauseMs: number }> {
    const client = await this.lock.acquire();
    if (!client || !this.producer) return { pauseMs: IDLE_MS };
    const { rows } = await client.query<{ seq: string; domain: string; event: WebhookSubscriptionEvent }>(
      'select seq, domain, event from webhook_subscription_event_outbox order by seq limit $1',
      [BATCH],
    );
    if (rows.length === 0) return 'caught-up';
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: rows.map(({ domain, event }) => ({ key: domain, value: JSON.stringify(event), headers: cloudEventHeaders(event) })),
    });
    for (const { event } of rows) this.counter.inc({ type: event.type, outcome: 'published' });
    await client.query('delete from webhook_subscription_event_outbox where seq <= $1', [rows[rows.length - 1].seq]);
    return rows.length === BATCH ? 'more' : 'caught-up';
  }
}

/** CloudEvents attributes (Kafka binding, binary mode): the value stays the event's JSON. */
function cloudEventHeaders(event: WebhookSubscriptionEvent): Record<string, string> {
  return {
    [CE.specversion]: CLOUDEVENTS_SPEC_VERSION,
    [CE.id]: event.eventId,
    [CE.source]: WEBHOOK_SUBSCRIPTION_EVENTS_SOURCE,
    [CE.type]: webhookSubscriptionCloudEventType(event.type),
    [CE.time]: event.occurredAt,
    [CE.dataschema]: WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_ID,
    [CE.contentType]: JSON_CONTENT_TYPE,
  };
}
