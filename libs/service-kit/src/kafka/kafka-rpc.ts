import { ClientKafka, ServerKafka } from '@nestjs/microservices';
import { KafkaReplyPartitionAssigner } from '@nestjs/microservices/helpers';
import { AssignerProtocol, type EachBatchPayload, type GroupMemberAssignment, type Kafka, type Producer } from 'kafkajs';
import { batchingProducer } from './batching-producer';

/** Requests of one partition's batch handled at the same time. */
const MAX_CONCURRENT_PER_PARTITION = 64;

function withBatchingProducers(kafka: Kafka): Kafka {
  const producer = kafka.producer.bind(kafka);
  kafka.producer = (config) => batchingProducer(producer(config));
  return kafka;
}

/**
 * Nest's Kafka server, with two changes for throughput:
 * - a partition's requests are handled concurrently (Nest's own server awaits each request before
 *   the next of its partition, which capped a service at one request per partition in flight and
 *   left nothing for the tail writer to batch);
 * - replies share produce requests (`batchingProducer`).
 * Offsets are still resolved in order, only up to the first request that failed, so a failed
 * request (and those after it) is delivered again, as before.
 */
export class ConcurrentServerKafka extends ServerKafka {
  override createClient<T = Kafka>(): T {
    return withBatchingProducers(super.createClient() as Kafka) as T;
  }

  override async bindEvents(consumer: NonNullable<ServerKafka['consumer']>): Promise<void> {
    const patterns = [...this.messageHandlers.keys()];
    if (patterns.length > 0) await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics: patterns });
    await consumer.run({
      ...(this.options.run ?? {}),
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(payload),
    });
  }

  private async handleBatch({ batch, resolveOffset, heartbeat }: EachBatchPayload): Promise<void> {
    // Keep the group membership alive while slow requests run (kafkajs only heartbeats between batches).
    const beat = setInterval(() => heartbeat().catch(() => undefined), 1_000);
    try {
      const { topic, partition, messages } = batch;
      const failures: unknown[] = new Array(messages.length).fill(undefined);
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < messages.length; i = next++) {
          try {
            await this.handleMessage({ topic, partition, message: messages[i], heartbeat, pause: () => () => undefined });
          } catch (error) {
            failures[i] = error ?? new Error('request failed');
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(MAX_CONCURRENT_PER_PARTITION, messages.length) }, worker));
      for (const [i, message] of messages.entries()) {
        if (failures[i] !== undefined) throw failures[i];
        resolveOffset(message.offset);
      }
    } finally {
      clearInterval(beat);
    }
  }
}

/**
 * Nest's reply assignment, cut to one partition per reply topic for each gateway copy: a copy
 * only ever receives replies on the lowest partition it is assigned, and every other partition
 * it was given (5 of 6 with one copy) was fetched for nothing on every fetch.
 */
class OneReplyPartitionAssigner extends KafkaReplyPartitionAssigner {
  override async assign(group: Parameters<KafkaReplyPartitionAssigner['assign']>[0]): Promise<GroupMemberAssignment[]> {
    const assigned = await super.assign(group);
    return assigned.map(({ memberId, memberAssignment }) => {
      const decoded = AssignerProtocol.MemberAssignment.decode(memberAssignment);
      const lowest = Object.fromEntries(
        Object.entries(decoded?.assignment ?? {}).map(([topic, partitions]) => [topic, partitions.length > 0 ? [Math.min(...partitions)] : []]),
      );
      return {
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({ version: decoded?.version ?? 1, assignment: lowest, userData: decoded?.userData ?? Buffer.alloc(0) }),
      };
    });
  }
}

/**
 * Nest's Kafka client, with its requests sharing produce requests (`batchingProducer`) and one
 * reply partition per topic (`OneReplyPartitionAssigner`).
 */
export class BatchingClientKafka extends ClientKafka {
  override createClient<T = Kafka>(): T {
    return withBatchingProducers(super.createClient() as Kafka) as T;
  }

  override connect(): Promise<Producer> {
    const consumer = (this.options.consumer ??= { groupId: this.groupId });
    consumer.partitionAssigners = [(config) => new OneReplyPartitionAssigner(this, config)];
    return super.connect();
  }
}
