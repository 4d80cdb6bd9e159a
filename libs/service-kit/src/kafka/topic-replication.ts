// Light imports only: the local stack loads this file alone, before the apps (tools/kafka).
import { ConfigError } from '../config-error';

/** How many copies of each partition a topic keeps, and how many must hold a write (acks=all) before it counts. */
export interface TopicReplication {
  replicationFactor: number;
  minInsyncReplicas: number;
}

/** The settings an operator may give instead of the defaults. */
export interface ReplicationSettings {
  KAFKA_REPLICATION_FACTOR?: string;
  KAFKA_MIN_INSYNC_REPLICAS?: string;
}

const NAMES = { replicationFactor: 'KAFKA_REPLICATION_FACTOR', minInsyncReplicas: 'KAFKA_MIN_INSYNC_REPLICAS' } as const;

/**
 * The replication of the topics tailsync creates on a cluster of `brokerCount` brokers: what is
 * configured, else the contract's defaults, 3 copies with 2 in sync on three brokers or more (one
 * broker may be lost without refusing a write), on fewer as many copies as brokers and one fewer
 * in sync (at least 1). Throws a ConfigError for a setting the cluster cannot honour.
 */
export function topicReplication(brokerCount: number, configured: Partial<TopicReplication> = {}): TopicReplication {
  const replicationFactor = configured.replicationFactor ?? Math.min(3, Math.max(1, brokerCount));
  const minInsyncReplicas = configured.minInsyncReplicas ?? Math.max(1, Math.min(2, replicationFactor - 1));
  if (replicationFactor > brokerCount) {
    throw new ConfigError(`${NAMES.replicationFactor}=${replicationFactor} but the cluster has ${brokerCount} broker${brokerCount === 1 ? '' : 's'}`);
  }
  if (minInsyncReplicas > replicationFactor) {
    // Such a topic would refuse every acks=all write.
    throw new ConfigError(`${NAMES.minInsyncReplicas}=${minInsyncReplicas} is more than the ${replicationFactor} replicas (${NAMES.replicationFactor})`);
  }
  return { replicationFactor, minInsyncReplicas };
}

/** Reads KAFKA_REPLICATION_FACTOR and KAFKA_MIN_INSYNC_REPLICAS; a value that is not a positive integer throws a ConfigError naming it. */
export function replicationSettings(settings: ReplicationSettings | NodeJS.ProcessEnv): Partial<TopicReplication> {
  const configured: Partial<TopicReplication> = {};
  const problems: string[] = [];
  for (const [key, name] of Object.entries(NAMES) as [keyof TopicReplication, string][]) {
    const text = (settings as Record<string, string | undefined>)[name];
    if (text === undefined || text === '') continue;
    if (/^[1-9]\d{0,2}$/.test(text)) configured[key] = Number(text);
    else problems.push(`${name} must be a positive integer`);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid Kafka topic settings:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return configured;
}

/** The topic configuration entries that carry `replication` besides the replica count. */
export const replicationConfig = (replication: TopicReplication): Record<string, string> => ({
  'min.insync.replicas': String(replication.minInsyncReplicas),
});
