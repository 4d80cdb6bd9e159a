import type { Pool } from 'pg';
import { BackfillWorker } from '../backfill/backfill.worker';
import { DispatcherCopy } from './dispatcher-copy';
import { eventTypeOnTopic } from './event-type-on-topic';
import { ensureSubscriptionEventsTopic, testConfig } from './harness';

/**
 * A dispatcher copy on `pool` (a spec's own schema) with its delivery scheduler and its
 * subscription-events publisher and its backfill worker running on the real broker, without the event consumer (specs
 * insert deliveries themselves; `topic` is the input topic a backfill reads). Stop it with {@link stopDispatcher}.
 */
export async function runningDispatcher(pool: Pool, name: string, settings: Record<string, string> = {}, topic?: string): Promise<DispatcherCopy> {
  const copy = await DispatcherCopy.create({ config: testConfig(settings), instanceId: name, pool, ...(topic !== undefined ? { eventTypes: [eventTypeOnTopic(topic)] } : {}) });
  await ensureSubscriptionEventsTopic();
  await copy.events.start();
  copy.scheduler.start();
  copy.get(BackfillWorker).start();
  return copy;
}

export async function stopDispatcher(copy: DispatcherCopy): Promise<void> {
  await copy.get(BackfillWorker).stop();
  await copy.scheduler.stop();
  await copy.events.stop();
  copy.sender.close();
  await copy.close();
}
