import type { RetryOptions } from 'kafkajs';

/**
 * How long a partition may have no reachable leader after its broker is lost. Kafka's controller
 * moves leadership only once it has fenced the broker, `broker.session.timeout.ms` after its last
 * heartbeat (9 s, Kafka's default and managed Kafka's); if the lost broker was also the active
 * controller, a new one is elected first (about 2 s) and starts the sessions afresh. The new
 * metadata then reaches the other brokers. Twice that, for a loaded machine or a slow election.
 */
export const BROKER_FAILOVER_MS = 2 * (9_000 + 2_000 + 1_000);

/**
 * The retries of the kafkajs clients that carry tailsync's events (the relay, the dispatcher's
 * consumer, DLQ and subscription-event producers): a send, fetch or join keeps trying through a
 * leader change, never waits more than 2 s between tries (so it goes on within 2 s of the new
 * leader), and gives up only after BROKER_FAILOVER_MS and more (leastRetryWaitMs).
 *
 * kafkajs's own defaults give up after 5 retries, 9 s in all on average and 3.8 s at the least:
 * often before a leader moved on a cluster with the default session; under `NODE_ENV=test` (Jest) it takes other defaults (a 1 s
 * cap), so every field is set here and tests measure what production runs.
 */
export const FAILOVER_RETRY = {
  initialRetryTime: 250,
  multiplier: 2,
  factor: 0.2,
  maxRetryTime: 2_000,
  retries: 30,
} as const satisfies Required<Omit<RetryOptions, 'restartOnFailure'>>;

/**
 * The least time kafkajs waits over every retry of `retry` before it gives up: each wait drawn at
 * the low end of its random spread (`factor`), as kafkajs's retrier (src/retry/index.js) draws them.
 */
export function leastRetryWaitMs(retry: Required<Omit<RetryOptions, 'restartOnFailure'>>): number {
  const low = (ms: number) => ms * (1 - retry.factor);
  let wait = low(retry.initialRetryTime);
  let total = 0;
  for (let i = 0; i < retry.retries; i++) {
    total += wait;
    wait = Math.min(low(wait) * retry.multiplier, retry.maxRetryTime);
  }
  return total;
}
