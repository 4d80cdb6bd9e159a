import type { Consumer } from 'kafkajs';
import { kafkaAccessFailure } from './kafka-access-failure';
import type { KafkaConnection } from './kafka-connection';

/**
 * kafkajs does not restart a consumer after an error it cannot retry (a group the principal may
 * not use: GROUP_AUTHORIZATION_FAILED), and the process would go on running without reading.
 * Stop it instead, with one line saying why, so the operator and the orchestrator see it.
 */
export function exitWhenConsumerStopsForGood(consumer: Consumer, connection: KafkaConnection, processName: string): void {
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart) return;
    const reason = kafkaAccessFailure(payload.error, connection)?.message ?? payload.error.message;
    process.stderr.write(`${processName} stopped: its Kafka consumer (group ${payload.groupId}) cannot go on: ${reason}\n`);
    process.exit(1);
  });
}
