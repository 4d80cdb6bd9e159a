import { FAILOVER_RETRY, idempotentProducer, type KafkaConnection } from '@tailsync/service-kit';
import { Kafka, logLevel, type Producer } from 'kafkajs';

/** The Kafka producer the relay publishes tail events with; the tails module connects it at start. */
export const RELAY_PRODUCER = Symbol('RELAY_PRODUCER');

/**
 * acks=all and idempotent, keys placed as the Java client places them (idempotentProducer); a send
 * rides out a partition leader's loss (FAILOVER_RETRY) instead of failing the relay's batch.
 */
export function relayProducer(kafka: KafkaConnection, clientId: string): Producer {
  return idempotentProducer(new Kafka({ ...kafka, clientId, logLevel: logLevel.WARN, retry: FAILOVER_RETRY }));
}
