import { kafkaConnection, type KafkaConnection } from './kafka-connection';

/**
 * The connection to the real broker `npm test` starts, as its environment gives it (KAFKA_BROKERS
 * and the admin principal's KAFKA_SASL_* settings): specs create topics and groups of their own.
 */
export function testKafka(spec: string): KafkaConnection {
  if (!process.env.KAFKA_BROKERS) throw new Error(`${spec} needs KAFKA_BROKERS (a real Kafka broker): run the suite with \`npm test\``);
  return kafkaConnection(process.env);
}
