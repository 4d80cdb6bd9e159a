import { KafkaOptions, Transport } from '@nestjs/microservices';
import { logLevel } from 'kafkajs';
import type { KafkaConnection } from './kafka-connection';
import { Murmur2Partitioner } from './murmur2-partitioner';

export interface KafkaEndpoint {
  connection: KafkaConnection;
  clientId: string;
  groupId: string;
}

/** One place for the kafkajs settings every tailsync process uses. */
export function kafkaTransport(endpoint: KafkaEndpoint): KafkaOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      client: {
        ...endpoint.connection,
        clientId: endpoint.clientId,
        logLevel: logLevel.WARN,
        retry: { initialRetryTime: 100, retries: 10 },
      },
      consumer: {
        groupId: endpoint.groupId,
        // The broker's minimum: a killed copy's partitions move to the survivors within about 6 s.
        sessionTimeout: 6_000,
        heartbeatInterval: 1_000,
        rebalanceTimeout: 10_000,
        maxWaitTimeInMs: 100,
        allowAutoTopicCreation: false,
      },
      // A group that has never committed starts at the beginning, so a request produced
      // before the first copy joined is still served (requests carry their own deadline).
      subscribe: { fromBeginning: true },
      // Every partition of the request topics (6) at once: a partition's requests run one at a time.
      run: { partitionsConsumedConcurrently: 6 },
      producer: { allowAutoTopicCreation: false, idempotent: false, createPartitioner: Murmur2Partitioner },
      postfixId: '',
    },
  };
}
