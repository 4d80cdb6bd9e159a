/**
 * The kafkajs fetch-retry patch, on kafkajs's own fetch loop (`consumer/runner`) over a stand-in
 * consumer group whose fetches fail in separate faults, healthy fetches between them, as a
 * long-lived consumer sees one broker loss after another.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { KafkaJSConnectionError } from 'kafkajs';
import { FAILOVER_RETRY } from './failover-retry';

interface Runner {
  start(): Promise<void>;
  stop(): Promise<void>;
}
type RunnerClass = (new (options: Record<string, unknown>) => Runner) & { tailsyncPatch?: string };

const Runner = require('kafkajs/src/consumer/runner') as RunnerClass;
const { createLogger, LEVELS } = require('kafkajs/src/loggers') as { createLogger: (options: object) => unknown; LEVELS: { NOTHING: number } };

/** FAILOVER_RETRY's count, without its waits. */
const RETRY = { ...FAILOVER_RETRY, initialRetryTime: 1, maxRetryTime: 1 };

/**
 * Runs kafkajs's fetch loop over a consumer group whose fetches from broker 1 fail `failures[i]`
 * times in a row in fault i, three healthy fetches before each fault and after the last, while the
 * fetches from `healthyBrokers` all go through; resolves once every fetch from broker 1 was made
 * or the consumer crashed.
 */
async function consumeThroughFaults(failures: number[], healthyBrokers: number[] = []): Promise<{ crashes: Error[]; fetches: number }> {
  const plan = failures.flatMap((n) => [...Array<'ok'>(3).fill('ok'), ...Array<'fail'>(n).fill('fail')]).concat(Array<'ok'>(3).fill('ok'));
  let fetches = 0;
  const crashes: Error[] = [];
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const consumerGroup = {
    groupId: 'stand-in',
    memberId: 'member-1',
    connect: async () => undefined,
    joinAndSync: async () => undefined,
    leave: async () => undefined,
    heartbeat: async () => undefined,
    getNodeIds: () => [1, ...healthyBrokers],
    fetch: async (nodeId: number) => {
      if (nodeId !== 1) {
        await new Promise((r) => setTimeout(r, 1));
        return [];
      }
      const step = plan[fetches++];
      if (fetches >= plan.length) done();
      await new Promise((r) => setTimeout(r, 1));
      if (step === 'fail') throw new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:19192');
      return [];
    },
  };
  const runner = new Runner({
    logger: createLogger({ level: LEVELS.NOTHING, logCreator: () => () => undefined }),
    consumerGroup,
    instrumentationEmitter: { emit: () => undefined },
    eachMessage: async () => undefined,
    heartbeatInterval: 3_000,
    concurrency: 1,
    retry: RETRY,
    onCrash: (error: Error) => {
      crashes.push(error);
      done();
    },
  });
  await runner.start();
  await finished;
  await runner.stop();
  return { crashes, fetches };
}

describe('kafkajs fetch-retry patch', () => {
  it('is applied: consumers fetch with the patched runner', () => {
    expect(Runner.tailsyncPatch).toBe('fetch-retry');
  });

  it("rides out fault after fault, each within the retries, over the consumer's life", async () => {
    // Ten faults of 8 failed fetches (about a broker's loss at FAILOVER_RETRY's waits): 80 in all.
    // Published kafkajs counts the retries over the consumer's life and crashes it in the fourth.
    const { crashes, fetches } = await consumeThroughFaults(Array<number>(10).fill(8));
    expect(crashes).toEqual([]);
    expect(fetches).toBeGreaterThanOrEqual(10 * (3 + 8) + 3);
  });

  it('still gives up on a fault that outlasts the retries', async () => {
    const { crashes } = await consumeThroughFaults([8, 100]);
    expect(crashes.map((e) => e.name)).toEqual(['KafkaJSNumberOfRetriesExceeded']);
  });

  it('still gives up on a broker that keeps failing while another serves the consumer', async () => {
    const { crashes } = await consumeThroughFaults([8, 100], [2]);
    expect(crashes.map((e) => e.name)).toEqual(['KafkaJSNumberOfRetriesExceeded']);
  });
});
