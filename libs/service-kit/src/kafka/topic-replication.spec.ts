import { replicationSettings, topicReplication } from './topic-replication';

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe("the replication of tailsync's topics", () => {
  it('is 3 replicas with 2 in sync on three brokers or more, 1 and 1 on one', () => {
    expect(topicReplication(1)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(topicReplication(3)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(topicReplication(6)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    // Two brokers: both copies, and a write survives one of them down.
    expect(topicReplication(2)).toEqual({ replicationFactor: 2, minInsyncReplicas: 1 });
  });

  it('takes what is configured, each setting on its own', () => {
    expect(topicReplication(5, { replicationFactor: 5 })).toEqual({ replicationFactor: 5, minInsyncReplicas: 2 });
    expect(topicReplication(3, { minInsyncReplicas: 3 })).toEqual({ replicationFactor: 3, minInsyncReplicas: 3 });
    expect(topicReplication(3, { replicationFactor: 1 })).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
  });

  it('refuses what the cluster cannot honour, naming the setting', () => {
    expect(failure(() => topicReplication(1, { replicationFactor: 3 }))).toBe('KAFKA_REPLICATION_FACTOR=3 but the cluster has 1 broker');
    expect(failure(() => topicReplication(3, { minInsyncReplicas: 4 }))).toBe('KAFKA_MIN_INSYNC_REPLICAS=4 is more than the 3 replicas (KAFKA_REPLICATION_FACTOR)');
  });

  it('reads the settings, refusing any that is not a positive integer', () => {
    expect(replicationSettings({})).toEqual({});
    expect(replicationSettings({ KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '' })).toEqual({ replicationFactor: 3 });
    expect(failure(() => replicationSettings({ KAFKA_REPLICATION_FACTOR: '0', KAFKA_MIN_INSYNC_REPLICAS: 'two' }))).toBe(
      'Invalid Kafka topic settings:\n  KAFKA_REPLICATION_FACTOR must be a positive integer\n  KAFKA_MIN_INSYNC_REPLICAS must be a positive integer',
    );
  });
});
