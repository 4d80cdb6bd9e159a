import type { Pool } from 'pg';
import { DispatcherRuntime } from '../dispatcher.runtime';
import { eventTypeOnTopic } from './event-type-on-topic';
import { ensureSubscriptionEventsTopic, testConfig } from './harness';

/**
 * A dispatcher copy on `pool` (a spec's own schema) with its delivery scheduler and its
 * subscription-events publisher running on the real broker, without the event consumer (specs
 * insert deliveries themselves; `topic` is the input topic a backfill reads). Stop it with {@link stopDispatcher}.
 */
export async function runningDispatcher(pool: Pool, name: string, settings: Record<string, string> = {}, topic?: string): Promise<DispatcherRuntime> {
  const runtime = new DispatcherRuntime(testConfig(settings), name, { pool, ...(topic !== undefined ? { eventTypes: [eventTypeOnTopic(topic)] } : {}) });
  await ensureSubscriptionEventsTopic();
  await runtime.events.start();
  runtime.scheduler.start();
  return runtime;
}

export async function stopDispatcher(runtime: DispatcherRuntime): Promise<void> {
  await runtime.scheduler.stop();
  await runtime.events.stop();
  runtime.sender.close();
}
