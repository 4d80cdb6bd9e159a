import { Kafka, logLevel } from 'kafkajs';
import { kafkaAccessFailure, kafkaFailureHint } from './kafka-access-failure';
import { ConfigError } from '../config-error';
import { describeKafkaConnection, type KafkaConnection } from './kafka-connection';
import { replicationConfig, topicReplication, type TopicReplication } from './topic-replication';

export interface TopicSpec {
  topic: string;
  numPartitions: number;
  /** Topic configuration set at creation (e.g. `retention.ms`); a topic that exists keeps its own. */
  config?: Record<string, string>;
}

/**
 * Creates the topics a process needs before its consumers start: kafkajs consumers race a
 * fresh broker's metadata, so topics are never left to auto-creation. They get `replication`
 * (KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS) or the defaults for the cluster's size.
 */
export async function ensureTopics(connection: KafkaConnection, specs: TopicSpec[], replication: Partial<TopicReplication> = {}): Promise<void> {
  const kafka = new Kafka({ ...connection, clientId: 'tailsync-admin', logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 200 } });
  const admin = kafka.admin();
  const deadline = Date.now() + 90_000;
  const where = describeKafkaConnection(connection);
  let missingTopics: string[] = [];
  try {
    // Several processes start at once on a possibly fresh broker: creation races and
    // not-yet-elected leaders are retried until every partition of every topic has a leader.
    for (;;) {
      try {
        await admin.connect();
        const existing = new Set(await admin.listTopics());
        const missing = specs.filter((s) => !existing.has(s.topic));
        missingTopics = missing.map((s) => s.topic);
        if (missing.length > 0) {
          const wanted = topicReplication((await admin.describeCluster()).brokers.length, replication);
          await admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((s) => ({
              topic: s.topic,
              numPartitions: s.numPartitions,
              replicationFactor: wanted.replicationFactor,
              configEntries: Object.entries({ ...s.config, ...replicationConfig(wanted) }).map(([name, value]) => ({ name, value })),
            })),
          });
        }
        const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
        if (topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
      } catch (error) {
        if (error instanceof ConfigError) throw error; // a replication the cluster cannot honour
        // Wrong credentials or missing rights do not heal: say so now rather than after the deadline.
        const denied = kafkaAccessFailure(error, connection);
        if (denied) {
          if (missingTopics.length > 0) denied.message += ` (missing topics, which it may not create: ${missingTopics.join(', ')})`;
          throw denied;
        }
        if (Date.now() > deadline) throw new Error(`Kafka topics not ready at ${where}: ${(error as Error).message}${kafkaFailureHint(connection)}`);
      }
      if (Date.now() > deadline) throw new Error(`Kafka topics not ready at ${where}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await admin.disconnect();
  }
}

/** Answers whether the broker serves metadata right now (readiness). */
export async function pingKafka(connection: KafkaConnection): Promise<void> {
  const kafka = new Kafka({ ...connection, clientId: 'tailsync-health', logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 1000 });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.describeCluster();
  } finally {
    await admin.disconnect();
  }
}

export class KafkaReadiness {
  readonly name = 'kafka';
  constructor(private readonly connection: KafkaConnection) {}
  check(): Promise<void> {
    return pingKafka(this.connection);
  }
}
