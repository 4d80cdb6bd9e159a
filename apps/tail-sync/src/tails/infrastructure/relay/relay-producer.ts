import { Murmur2Partitioner, type KafkaConnection } from '@tailsync/service-kit';
import { Kafka, logLevel, type Producer } from 'kafkajs';

/** The Kafka producer the relay publishes tail events with; the tails module connects it at start. */
export const RELAY_PRODUCER = Symbol('RELAY_PRODUCER');

/** Keys partitioned as the Java client does; topics are created at start, never on first send. */
export function relayProducer(kafka: KafkaConnection, clientId: string): Producer {
  return new Kafka({ ...kafka, clientId, logLevel: logLevel.WARN }).producer({ createPartitioner: Murmur2Partitioner, allowAutoTopicCreation: false });
}
