/**
 * The kafkajs produce-retry patch, on kafkajs's own send path (`producer/sendMessages`) over a
 * stand-in cluster whose leaders move between two tries, as they do when a broker is lost: every
 * message is written once, to its partition's leader at the time. (With real brokers:
 * tools/kafka/kafka-cluster.spec.ts, a leader hung mid-send.)
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { KafkaJSConnectionError, type Message } from 'kafkajs';

interface TopicData {
  topic: string;
  partitions: { partition: number; firstSequence?: number; messages: Message[] }[];
}
interface PartitionAnswer {
  topicName: string;
  partition: number;
  errorCode: number;
  baseOffset: string;
}
type Send = (request: { acks: number; timeout?: number; topicMessages: { topic: string; messages: Message[] }[] }) => Promise<PartitionAnswer[]>;
type SendMessages = ((options: Record<string, unknown>) => Send) & { tailsyncPatch?: string };

const sendMessages = require('kafkajs/src/producer/sendMessages') as SendMessages;
const createRetry = require('kafkajs/src/retry') as (options: object) => unknown;
const TOPIC = 'tailsync.tail-events';

/** What each broker wrote, per partition, in order. */
type Written = Map<number, Map<number, string[]>>;

/**
 * Two partitions, led by brokers 1 and 2; broker 1 refuses its first request (it was just lost),
 * and the metadata asked after that failure names broker 2 leader of both, as the controller's
 * new leadership does. `inFlightMs` delays broker 2's answer.
 */
function clusterLosingBroker1(inFlightMs = 0) {
  const written: Written = new Map([
    [1, new Map()],
    [2, new Map()],
  ]);
  let leaders: Record<number, number> = { 0: 1, 1: 2 };
  let lost = true;
  const broker = (nodeId: number) => ({
    nodeId,
    produce: async ({ topicData }: { topicData: TopicData[] }) => {
      if (nodeId === 1 && lost) {
        lost = false;
        throw new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:19192');
      }
      if (nodeId === 2) await new Promise((r) => setTimeout(r, inFlightMs));
      const partitions = topicData[0].partitions.map(({ partition, messages }) => {
        const log = written.get(nodeId)!.get(partition) ?? [];
        written.get(nodeId)!.set(partition, [...log, ...messages.map((m) => String(m.value))]);
        return { partition, errorCode: 0, baseOffset: String(log.length) };
      });
      return { topics: [{ topicName: TOPIC, partitions }] };
    },
  });
  const brokers = new Map([1, 2].map((id) => [id, broker(id)]));
  const metadata = () => Object.entries(leaders).map(([p, leader]) => ({ partitionId: Number(p), leader, partitionErrorCode: 0, replicas: [1, 2], isr: [1, 2] }));
  const cluster = {
    targetTopics: new Set([TOPIC]),
    addMultipleTargetTopics: async () => undefined,
    refreshMetadataIfNecessary: async () => undefined,
    refreshMetadata: async () => {
      leaders = { 0: 2, 1: 2 };
    },
    isConnected: () => true,
    connect: async () => undefined,
    removeBroker: () => undefined,
    findTopicPartitionMetadata: () => metadata(),
    findLeaderForPartitions: (_topic: string, partitions: string[]) =>
      partitions.reduce<Record<number, number[]>>((result, p) => ({ ...result, [leaders[Number(p)]]: [...(result[leaders[Number(p)]] ?? []), Number(p)] }), {}),
    findBroker: async ({ nodeId }: { nodeId: string | number }) => brokers.get(Number(nodeId)),
  };
  const eosManager = {
    isTransactional: () => false,
    acquireBrokerLock: async () => undefined,
    releaseBrokerLock: async () => undefined,
    getSequence: () => 0,
    updateSequence: () => undefined,
    getProducerId: () => 1,
    getProducerEpoch: () => 0,
  };
  const logger = { debug: () => undefined, error: () => undefined, warn: () => undefined, info: () => undefined };
  const send = sendMessages({
    logger,
    cluster,
    eosManager,
    // The message's own partition: 0 or 1.
    partitioner: ({ message }: { message: Message }) => message.partition!,
    retrier: createRetry({ initialRetryTime: 5, maxRetryTime: 20, retries: 5, factor: 0, multiplier: 2 }),
  });
  return { send, written };
}

const messages = [0, 1, 2, 3].map((i) => ({ partition: i % 2, value: `m${i}` }));

describe('kafkajs produce-retry patch', () => {
  it('is applied: kafkajs sends with the patched sendMessages', () => {
    expect(sendMessages.tailsyncPatch).toBe('produce-retry');
  });

  it("sends a lost leader's partitions to their new leader, though it answered for its own partitions before", async () => {
    const { send, written } = clusterLosingBroker1();
    const answers = await send({ acks: -1, topicMessages: [{ topic: TOPIC, messages }] });
    // Published kafkajs resolves here with partition 1's answer alone: m0 and m2 were never written.
    expect(written.get(2)).toEqual(
      new Map([
        [1, ['m1', 'm3']],
        [0, ['m0', 'm2']],
      ]),
    );
    expect(answers.map((a) => a.partition).sort()).toEqual([0, 1]);
  });

  it('never sends a partition again while its first request is still in flight', async () => {
    const { send, written } = clusterLosingBroker1(50);
    await send({ acks: -1, topicMessages: [{ topic: TOPIC, messages }] });
    expect(written.get(2)!.get(1)).toEqual(['m1', 'm3']);
    expect(written.get(2)!.get(0)).toEqual(['m0', 'm2']);
  });
});
