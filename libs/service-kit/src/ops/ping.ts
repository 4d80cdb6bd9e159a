import { PingReply } from '@tailsync/contracts';
import { ReadinessCheck, withTimeout } from './readiness-check';

/** A check that has not answered by then counts as down, so the gateway's probe gets an answer within its own budget. */
const CHECK_TIMEOUT_MS = 1_500;

/** Names this copy of a process (several may run behind one consumer group). */
export const INSTANCE_ID = Symbol('INSTANCE_ID');

/** A service's answer to the gateway's readiness probe: its own dependencies, checked now. */
export async function pingReply(service: string, instance: string, checks: ReadinessCheck[]): Promise<PingReply> {
  const results = await Promise.all(
    checks.map(async (c) => [c.name, await withTimeout(c.check(), CHECK_TIMEOUT_MS, c.name).then(() => 'up' as const, () => 'down' as const)] as const),
  );
  return { service, instance, ready: results.every(([, s]) => s === 'up'), checks: Object.fromEntries(results) };
}
