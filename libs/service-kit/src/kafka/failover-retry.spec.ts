/* eslint-disable @typescript-eslint/no-require-imports */
import type { RetryOptions } from 'kafkajs';
import { BROKER_FAILOVER_MS, FAILOVER_RETRY, leastRetryWaitMs } from './failover-retry';

type Retrier = <T>(fn: (bail: (e: Error) => void, retryCount: number) => Promise<T>) => Promise<T>;
const createRetry = require('kafkajs/src/retry') as (options: RetryOptions) => Retrier;
/** kafkajs's defaults outside Jest, what a client without retry settings runs with in production. */
const kafkajsDefaults = require('kafkajs/src/retry/defaults') as Required<Omit<RetryOptions, 'restartOnFailure'>>;

/** How long kafkajs's own retrier, every random draw at its lowest, waits before it gives up. */
async function measuredGiveUpMs(retry: RetryOptions): Promise<number> {
  jest.useFakeTimers();
  const random = jest.spyOn(Math, 'random').mockReturnValue(0);
  try {
    const started = Date.now();
    const failing = createRetry(retry)(async () => {
      throw Object.assign(new Error('Connection refused'), { retriable: true });
    });
    const outcome = failing.then(
      () => 'resolved',
      (error: Error) => error.name,
    );
    await jest.runAllTimersAsync();
    expect(await outcome).toBe('KafkaJSNumberOfRetriesExceeded');
    return Date.now() - started;
  } finally {
    random.mockRestore();
    jest.useRealTimers();
  }
}

describe('the retries of the clients that carry events (FAILOVER_RETRY)', () => {
  it('outlast a leader change after a broker is lost, with room to spare', () => {
    expect(leastRetryWaitMs(FAILOVER_RETRY)).toBeGreaterThan(BROKER_FAILOVER_MS);
    expect(FAILOVER_RETRY.maxRetryTime).toBeLessThanOrEqual(2_000);
  });

  it("are what kafkajs's retrier waits: leastRetryWaitMs matches it, within its rounding up", async () => {
    for (const retry of [FAILOVER_RETRY, kafkajsDefaults]) {
      const measured = await measuredGiveUpMs(retry);
      // kafkajs rounds each draw up to a whole millisecond, and the next wait grows from it.
      expect(measured).toBeGreaterThanOrEqual(Math.floor(leastRetryWaitMs(retry)));
      expect(measured).toBeLessThanOrEqual(leastRetryWaitMs(retry) * 1.01);
    }
  });

  it("are needed: kafkajs's defaults give up before a lost broker's partitions have a new leader", () => {
    // 5 retries: 3.8 s at the least (9 s on average), under the 9 s session alone.
    expect(leastRetryWaitMs(kafkajsDefaults)).toBeLessThan(9_000);
  });
});
