/**
 * The three-node Kafka override (`docker-compose.kafka-cluster.yml`) brought up as an operator
 * would: every tailsync topic has 3 replicas and `min.insync.replicas` 2, a tail written through
 * the API reaches `tailsync.tail-events`, and with one broker stopped the API still accepts tails
 * and their events still reach the topic (two in-sync replicas are left).
 */
import './support/retry-closed-connections';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KAFKA_TOPICS } from '@tailsync/contracts';
import { kafkaConnection } from '@tailsync/service-kit';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { api, newServiceAccount, type TestAccount } from '../../src/support/accounts';
import { tailIdsOnTopic } from '../../src/support/kafka';
import { ComposeProject, REPO_ROOT } from './support/compose-project';

const release = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const stack = new ComposeProject({
  name: 'tailsync-kafka-cluster',
  overrides: ['docker-compose.kafka-cluster.yml'],
  // Ports of its own: another compose test's stack may still be up (TAILSYNC_COMPOSE_KEEP=1).
  settings: {
    TAILSYNC_IMAGE_PREFIX: 'tailsync-compose-test',
    TAILSYNC_VERSION: release,
    GATEWAY_PORT: '23200',
    KAFKA_EXTERNAL_PORT: '29294',
    KAFKA_2_EXTERNAL_PORT: '29295',
    KAFKA_3_EXTERNAL_PORT: '29296',
    RECEIVER_PORT: '28280',
  },
});
process.env.E2E_BASE_URL = stack.gatewayUrl;
process.env.ADMIN_TOKEN = stack.secrets.admin_token;
// The e2e helpers read tailsync.tail-events as an internal service does: reader, in reader-* groups.
Object.assign(process.env, stack.externalKafka('reader'), { E2E_KAFKA_GROUP_PREFIX: 'reader-compose-' });

/** Every topic of the contract, which kafka-init creates. */
const TAILSYNC_TOPICS = KAFKA_TOPICS.map((t) => t.topic);

beforeAll(() => {
  stack.run(['down', '--volumes', '--remove-orphans']); // a run killed before its clean-up
  stack.must(['build'], 1_200_000); // cached when another compose test built them
  stack.upAndWait(600);
}, 1_800_000);

afterAll(() => {
  if (process.env.TAILSYNC_COMPOSE_KEEP !== '1') stack.run(['down', '--volumes', '--remove-orphans']);
}, 300_000);

/** Which of `tailIds` reached tailsync.tail-events, in the order given. */
async function onTailEvents(account: TestAccount, tailIds: string[]): Promise<string[]> {
  const seen = await tailIdsOnTopic(account.domain, tailIds, 90_000);
  return tailIds.filter((id) => seen.has(id));
}

describe('docker-compose.kafka-cluster.yml, brought up', () => {
  it('gives every tailsync topic 3 replicas on 3 brokers and min.insync.replicas 2', async () => {
    const admin = new Kafka({ ...kafkaConnection(stack.externalKafka('admin')), clientId: 'compose-cluster-test', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { brokers } = await admin.describeCluster();
      expect(brokers.map((b) => b.nodeId).sort()).toEqual([1, 2, 3]);
      const { topics } = await admin.fetchTopicMetadata({ topics: TAILSYNC_TOPICS });
      for (const topic of topics) {
        for (const partition of topic.partitions) {
          expect({ topic: topic.name, partition: partition.partitionId, replicas: partition.replicas.length, inSync: partition.isr.length })
            .toEqual({ topic: topic.name, partition: partition.partitionId, replicas: 3, inSync: 3 });
        }
      }
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: TAILSYNC_TOPICS.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ['min.insync.replicas'] })),
      });
      expect(resources.map((r) => [r.resourceName, r.configEntries.find((e) => e.configName === 'min.insync.replicas')?.configValue]))
        .toEqual(TAILSYNC_TOPICS.map((name) => [name, '2']));
    } finally {
      await admin.disconnect();
    }
  }, 120_000);

  it('accepts tails and publishes their events with one broker stopped', async () => {
    const account = await newServiceAccount();
    const put = async (tailId: string) => (await api(account, 'PUT', '/Tails', { tailId, tailNumber: `N${tailId.slice(-4).toUpperCase()}` })).status;

    expect(await put('cluster-before')).toBe(201);
    expect(await onTailEvents(account, ['cluster-before'])).toEqual(['cluster-before']);

    // A broker lost: the second node, not the one the stack's external clients bootstrap from.
    stack.must(['stop', 'kafka-2'], 120_000);
    try {
      const during = ['cluster-stopped-1', 'cluster-stopped-2', 'cluster-stopped-3'];
      for (const tailId of during) expect({ tailId, status: await put(tailId) }).toEqual({ tailId, status: 201 });
      expect(await onTailEvents(account, during)).toEqual(during);
    } finally {
      stack.must(['start', 'kafka-2'], 120_000);
    }
  }, 300_000);
});
