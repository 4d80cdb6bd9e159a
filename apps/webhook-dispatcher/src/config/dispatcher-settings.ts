import { WEBHOOK_EVENT_TYPES, WEBHOOK_SUBSCRIPTIONS_TOPIC, type TopicContract, type WebhookEventType } from '@tailsync/contracts';
import type { Pool } from 'pg';
import type { WebhookDispatcherConfig } from './webhook-dispatcher.config';

/** What one dispatcher copy is built from: its settings, its name, and (specs) a pool or topics of their own. */
export interface DispatcherSettings {
  config: WebhookDispatcherConfig;
  instanceId: string;
  /** The copy's PostgreSQL pool (DATABASE_URL's). */
  pool: Pool;
  /** Connections that plan each statement once, for the steady path's small batches; by default `pool`. */
  plannedOncePool?: Pool;
  /** The event types it consumes; by default the registry's. */
  eventTypes?: readonly WebhookEventType[];
  /** How long first attempts' leases wait to be written together; by default 100 ms. */
  leaseWriteLingerMs?: number;
  /** The domain's events a backfill job reads and stores per page; by default 500. */
  backfillPageSize?: number;
  /** How often an idle copy looks for a queued backfill job; by default 1 s. */
  backfillPollMs?: number;
}

export const DISPATCHER_SETTINGS = Symbol('DISPATCHER_SETTINGS');
/** Connections that plan each statement once, for the steady path's small batches (BatchPools). */
export const PLANNED_ONCE_POOL = Symbol('PLANNED_ONCE_POOL');
/** The webhook event types this copy consumes: {@link eventTypesOf} its settings. */
export const EVENT_TYPES = Symbol('EVENT_TYPES');

/**
 * The one place that decides which event types a copy consumes (its consumer, backfills, lag and
 * the topics it creates all follow it): the registry's, or in specs topics of their own.
 */
export function eventTypesOf(settings: DispatcherSettings): readonly WebhookEventType[] {
  return settings.eventTypes ?? WEBHOOK_EVENT_TYPES;
}

/** The topics a copy creates at start: each event type's input and dead letters, and the subscription changes it publishes. */
export function dispatcherTopics(settings: DispatcherSettings): TopicContract[] {
  return [...eventTypesOf(settings).flatMap((type) => [type.input, type.deadLetters]), WEBHOOK_SUBSCRIPTIONS_TOPIC];
}
