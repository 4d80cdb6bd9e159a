/**
 * Brokers failing under load, on one stack of three brokers and two copies of each app: the
 * leader of a busy partition SIGKILLed (restarted 20 s later). Each fault waits for the cluster
 * to be whole again (every replica in sync) before it starts.
 */
import { KAFKA_TOPICS, TOPICS } from '@tailsync/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { type FaultStack, runFault, startFaultStack } from './support';

let stack: FaultStack;

beforeAll(async () => {
  stack = await startFaultStack({ name: 'kafka-brokers' });
}, 300_000);

afterAll(async () => {
  await stack?.stop();
}, 120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Partitions of tailsync's topics as the cluster sees them now. */
async function partitions(): Promise<{ topic: string; partitionId: number; leader: number; isr: number[] }[]> {
  const admin = new Kafka({ ...stack.kafka('admin'), clientId: 'fault-suite-leader', logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: KAFKA_TOPICS.map((t) => t.topic) });
    return topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partitionId: p.partitionId, leader: p.leader, isr: p.isr })));
  } finally {
    await admin.disconnect();
  }
}

/** The broker that leads partition 0 of `topic` now. */
const leaderOf = async (topic: string) => (await partitions()).find((p) => p.topic === topic && p.partitionId === 0)!.leader;

/** Waits until every replica of every topic is in sync: the cluster is whole again after a fault. */
beforeEach(async () => {
  const started = Date.now();
  while ((await partitions().catch(() => [{ isr: [] }])).some((p) => p.isr.length < 3)) {
    if (Date.now() - started > 120_000) throw new Error('the cluster is not whole (every replica in sync) after 120 s');
    await sleep(1000);
  }
}, 150_000);

it('the leader of a busy partition SIGKILLed: the API answers throughout, nothing is lost or stuck', async () => {
  const outcome = await runFault(stack, {
    name: 'kafka: partition leader SIGKILLed',
    holdMs: 20_000,
    inject: async () => {
      const leader = await leaderOf(TOPICS.tailEvents);
      const broker = stack.brokers.find((b) => b.nodeId === leader)!;
      await broker.kill();
      return () => broker.restart();
    },
  });
  expect(outcome.improperAnswers).toEqual([]);
  expect(outcome.invariants.violations).toEqual([]);
});
