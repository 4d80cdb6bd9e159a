import { countingKafkaLogs, FAILOVER_CLIENT, idempotentProducer, type KafkaConnection, RenewingProducer, type Sender } from '@tailsync/service-kit';
import { Kafka, logLevel } from 'kafkajs';

/** The Kafka producer the relay publishes tail events with; the tails module connects it at start. */
export const RELAY_PRODUCER = Symbol('RELAY_PRODUCER');

/**
 * acks=all and idempotent, keys placed as the Java client places them (idempotentProducer); a send
 * rides out a partition leader's loss (FAILOVER_CLIENT) instead of failing the relay's batch, and a
 * send that fails for good leaves a new producer for the relay's next try from its checkpoint
 * (RenewingProducer), never one the broker refuses as out of order.
 */
export function relayProducer(kafka: KafkaConnection, clientId: string): Sender {
  const client = new Kafka({ ...kafka, clientId, logLevel: logLevel.WARN, logCreator: countingKafkaLogs('tail-events-relay'), ...FAILOVER_CLIENT });
  return new RenewingProducer(() => idempotentProducer(client));
}
