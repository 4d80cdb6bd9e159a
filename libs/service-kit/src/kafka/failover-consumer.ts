import type { Consumer, ConsumerConfig, Kafka } from 'kafkajs';
import { FAILOVER_RETRY } from './failover-retry';

/**
 * The one way tailsync makes a Kafka consumer (a lint rule keeps `kafka.consumer()` out of the
 * rest): with FAILOVER_RETRY. kafkajs gives `consumer()` a retry default of its own,
 * `{ retries: 5 }`, which overrides the client's: its fetch loop gave up after about 6 s of a lost
 * leader, before the controller had moved the leadership, and the consumer crashed and restarted
 * (rejoining its group, so every copy rebalanced). A lost group coordinator is looked up again by
 * tailsync's kafkajs patch `coordinator-failover`; without it no number of retries helped.
 */
export function failoverConsumer(kafka: Kafka, config: Omit<ConsumerConfig, 'retry'>): Consumer {
  return kafka.consumer({ ...config, retry: FAILOVER_RETRY });
}
