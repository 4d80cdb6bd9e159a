import type { Kafka, Producer, ProducerConfig } from 'kafkajs';
import { Murmur2Partitioner } from './murmur2-partitioner';

/**
 * What every tailsync producer is made with. `idempotent`: the broker drops a batch a retry sends
 * twice (across a leader change too), and kafkajs 2.2.4 refuses any send whose acks is not -1
 * (all in-sync replicas). Its retries are the client's: kafkajs's "no limit for an idempotent
 * producer" applies only to a producer made without a retry object, which `Kafka.producer()` never
 * does, so it retries 5 times (a few seconds) unless the client says otherwise; the clients that
 * carry events use FAILOVER_RETRY, which outlasts a leader change. A send that gives up rolls the
 * batch's sequence numbers back, so it should give up only when the cluster is really gone. One
 * request in flight per connection, as KIP-98 asks of
 * idempotent producers (kafkajs also holds one produce per broker behind a lock). Keys are placed
 * as the Java client places them; topics are created at start, never on a first send.
 */
export const IDEMPOTENT_PRODUCER_CONFIG = {
  idempotent: true,
  maxInFlightRequests: 1,
  allowAutoTopicCreation: false,
  createPartitioner: Murmur2Partitioner,
} as const satisfies ProducerConfig;

/** The one way tailsync makes a Kafka producer (a lint rule keeps `kafka.producer()` out of the rest). */
export function idempotentProducer(kafka: Kafka): Producer {
  return kafka.producer(IDEMPOTENT_PRODUCER_CONFIG);
}
