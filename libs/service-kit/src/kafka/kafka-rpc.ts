import { ClientKafka, ServerKafka } from '@nestjs/microservices';
import type { EachBatchPayload, Kafka } from 'kafkajs';
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

/** Nest's Kafka client whose requests share produce requests (`batchingProducer`). */
export class BatchingClientKafka extends ClientKafka {
  override createClient<T = Kafka>(): T {
    return withBatchingProducers(super.createClient() as Kafka) as T;
  }
}
