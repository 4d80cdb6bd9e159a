import type { KafkaConnection } from '@tailsync/service-kit';
import { Kafka, logLevel } from 'kafkajs';

/**
 * Ready = a kafkajs admin client can describe the cluster (with at least `brokers` brokers in it),
 * list topics, and find a group coordinator. The last step makes the broker create
 * __consumer_offsets now, so the first real consumer does not hit "The group coordinator is not
 * available".
 */
export function brokerReadinessProbe(admin: KafkaConnection, brokers = 1): () => Promise<void> {
  const kafka = new Kafka({
    ...admin,
    clientId: 'tailsync-kafka-readiness',
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: 5_000,
    retry: { retries: 0 },
  });
  return async () => {
    const admin = kafka.admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length < brokers) throw new Error(`describeCluster() lists ${cluster.brokers.length} of the ${brokers} brokers`);
      await admin.listTopics();
      await admin.describeGroups(['tailsync-kafka-readiness']);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  };
}
