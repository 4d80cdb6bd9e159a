import { Logger } from '@nestjs/common';
import {
  CLOUDEVENTS_HEADERS as CE, CLOUDEVENTS_SPEC_VERSION, JSON_CONTENT_TYPE, TOPICS, WEBHOOK_SUBSCRIPTION_EVENT_SCHEMA_ID,
  WEBHOOK_SUBSCRIPTION_EVENTS_SOURCE, webhookSubscriptionCloudEventType,
  type WebhookSubscriptionEvent, type WebhookSubscriptionEventData, type WebhookSubscriptionEventType,
} from '@tailsync/contracts';
import { metricsRegistry, Murmur2Partitioner, type KafkaConnection } from '@tailsync/service-kit';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { Counter } from 'prom-client';

export interface SubscriptionEventsOptions {
  kafka: KafkaConnection;
  clientId: string;
  /** Default `tailsync.webhook-subscriptions`. */
  topic?: string;
}

/**
 * Publishes a subscription's changes of state on `tailsync.webhook-subscriptions` (key = domain)
 * and counts them in `webhook_subscription_events_total{type}`, so operators can alert on
 * `SubscriptionDisabled`. Published after the database change: a broker that stays down past
 * kafkajs's retries loses the message (logged and counted as `outcome="failed"`), never the change.
 */
export class SubscriptionEventsPublisher {
  private readonly logger = new Logger('SubscriptionEventsPublisher');
  private readonly kafka: Kafka;
  private producer: Producer | undefined;
  private readonly topic: string;
  private readonly counter = (metricsRegistry.getSingleMetric('webhook_subscription_events_total') as Counter<'type' | 'outcome'> | undefined) ??
    new Counter({
      name: 'webhook_subscription_events_total',
      help: 'Changes of state of webhook subscriptions (SubscriptionDisabled, …) published on tailsync.webhook-subscriptions, by outcome',
      labelNames: ['type', 'outcome'] as const,
      registers: [metricsRegistry],
    });

  constructor(options: SubscriptionEventsOptions) {
    this.topic = options.topic ?? TOPICS.webhookSubscriptions;
    this.kafka = new Kafka({ ...options.kafka, clientId: options.clientId, logLevel: logLevel.WARN, retry: { initialRetryTime: 100, retries: 8 } });
  }

  async start(): Promise<void> {
    this.producer = this.kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Murmur2Partitioner });
    await this.producer.connect();
  }

  async stop(): Promise<void> {
    await this.producer?.disconnect().catch(() => undefined);
  }

  /** Publishes one event; never throws (the change it reports is already made). */
  async publish(type: WebhookSubscriptionEventType, domain: string, data: WebhookSubscriptionEventData): Promise<void> {
    const event: WebhookSubscriptionEvent = { eventId: randomUUID(), type, domain, occurredAt: new Date().toISOString(), data };
    try {
      if (!this.producer) throw new Error('the publisher is not started');
      await this.producer.send({ topic: this.topic, acks: -1, messages: [{ key: domain, value: JSON.stringify(event), headers: cloudEventHeaders(event) }] });
      this.counter.inc({ type, outcome: 'published' });
    } catch (error) {
      this.counter.inc({ type, outcome: 'failed' });
      this.logger.error({ msg: 'a subscription event could not be published', type, domain, error: (error as Error).message });
    }
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
