import type { Kafka, Producer, ProducerConfig } from 'kafkajs';
import { Murmur2Partitioner } from './murmur2-partitioner';

/**
 * What every tailsync producer is made with. `idempotent`: the broker drops a batch a retry sends
 * twice (across a leader change too), and kafkajs 2.2.4 refuses any send whose acks is not -1
 * (all in-sync replicas); its retries are left at kafkajs's default for it (no limit), since a
 * send that gives up rolls the batch's sequence numbers back, and a later send of other records
 * under them is refused as out of order. One request in flight per connection, as KIP-98 asks of
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
