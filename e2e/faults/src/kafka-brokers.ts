/**
 * Brokers failing under load, on the stack of three brokers and two copies of each app that
 * `infrastructure.faults.ts` shares with the partition faults: the leader of a busy partition
 * SIGKILLed (restarted 10 s later); one broker cut off the network for 30 s; the active controller
 * SIGKILLed (restarted 10 s later); the first copy of tail-sync and of the dispatcher cut off from
 * Kafka (not from PostgreSQL or their peers) for 30 s. Each fault waits for the cluster to be whole
 * again (every replica in sync, a controller elected) before it starts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KAFKA_TOPICS, RISK_ASSESSMENT_EXECUTED_TOPIC, TOPICS } from '@tailsync/contracts';
import { cutOff, type KafkaNode, kraftConfigPaths } from '@tailsync/tools/testing';
import { Kafka, logLevel } from 'kafkajs';
import { expectHeldUp, type FaultStack, readAsDown, runFault } from './support';

let stack: FaultStack;

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
async function leaderOf(topic: string): Promise<KafkaNode> {
  const leader = (await partitions()).find((p) => p.topic === topic && p.partitionId === 0)!.leader;
  return stack.brokers.find((b) => b.nodeId === leader)!;
}

/** The quorum's state as one node's disk has it; none while the node rewrites it. */
function quorumStateOf(node: KafkaNode): { leaderId?: number; leaderEpoch: number } | undefined {
  const file = join(kraftConfigPaths(`${stack.dataDir}/kafka-${node.nodeId}`).logDir, '__cluster_metadata-0', 'quorum-state');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { leaderId?: number; leaderEpoch: number };
  } catch {
    return undefined;
  }
}

/**
 * The active controller, as the quorum's state on the nodes' disks names it (the newest epoch);
 * none while an election goes on (that epoch names no leader yet).
 */
function activeController(): KafkaNode | undefined {
  const states = stack.brokers.map(quorumStateOf).filter((state) => state !== undefined);
  const newest = states.sort((a, b) => b.leaderEpoch - a.leaderEpoch)[0];
  return stack.brokers.find((b) => b.nodeId === newest?.leaderId);
}

/** The broker faults, as tests on the stack `stackOf` gives (started by the file that runs them). */
export function kafkaBrokerFaults(stackOf: () => FaultStack): void {
  beforeAll(() => {
    stack = stackOf();
  });

  /** Waits until every replica of every topic is in sync and the quorum has a leader: the cluster is whole again after a fault. */
  beforeEach(async () => {
    const started = Date.now();
    while ((await partitions().catch(() => [{ isr: [] }])).some((p) => p.isr.length < 3) || !activeController()) {
      if (Date.now() - started > 120_000) throw new Error('the cluster is not whole (every replica in sync, a controller elected) after 120 s');
      await sleep(1000);
    }
  }, 150_000);

  it('the leader of a busy partition SIGKILLed: the API answers throughout, nothing is lost or stuck', async () => {
    const outcome = await runFault(stack, {
      name: 'kafka: partition leader SIGKILLed',
      holdMs: 10_000,
      inject: async () => {
        const broker = await leaderOf(TOPICS.tailEvents);
        await broker.kill();
        return () => broker.restart();
      },
    });
    expectHeldUp(outcome);
    // Every app copy stays up through a broker's loss: its /metrics must answer (the lag read is bounded).
    expect(readAsDown(outcome.alerts)).toEqual([]);
  });

  it('one broker cut off the network for 30 s: the API answers throughout, nothing is lost or stuck', async () => {
    const outcome = await runFault(stack, {
      name: 'kafka: one broker cut off for 30 s',
      holdMs: 30_000,
      inject: async () => {
        const broker = await leaderOf(RISK_ASSESSMENT_EXECUTED_TOPIC.topic);
        const cut = cutOff(broker.pid()!, `broker-${broker.nodeId}`);
        return () => cut.heal();
      },
    });
    expectHeldUp(outcome);
    expect(readAsDown(outcome.alerts)).toEqual([]);
  });

  it('the active controller SIGKILLed: the API answers throughout, nothing is lost or stuck', async () => {
    const outcome = await runFault(stack, {
      name: 'kafka: active controller SIGKILLed',
      holdMs: 10_000,
      inject: async () => {
        const controller = activeController();
        if (!controller) throw new Error('the quorum names no active controller');
        await controller.kill();
        return () => controller.restart();
      },
    });
    expectHeldUp(outcome);
    expect(readAsDown(outcome.alerts)).toEqual([]);
  });

  it('one copy of each service cut off from Kafka for 30 s: the API answers throughout, nothing is lost or stuck', async () => {
    const outcome = await runFault(stack, {
      name: 'kafka: one copy of each service cut off from Kafka for 30 s',
      holdMs: 30_000,
      inject: async () => {
        // The gateway has no Kafka client: tail-sync's relay and the dispatcher's consumer do.
        const cuts = stack.copies
          .filter((c) => c.index === 0 && c.name !== 'gateway')
          .map((c) => cutOff(c.process.child.pid!, `${c.name}-from-kafka`, stack.kafkaPorts));
        return async () => {
          for (const cut of cuts) await cut.heal();
        };
      },
    });
    expectHeldUp(outcome);
    expect(readAsDown(outcome.alerts)).toEqual([]);
  });
}
