import type { KafkaConnection } from '@tailsync/service-kit';
import { Admin, Kafka, logLevel } from 'kafkajs';

/** Messages of a topic a consumer group has not committed yet, summed over its partitions. */
export class ConsumerLag {
  private readonly admin: Admin;
  private connected?: Promise<void>;

  constructor(kafka: KafkaConnection, clientId: string, private readonly groupId: string, private readonly topic: string) {
    this.admin = new Kafka({ ...kafka, clientId, logLevel: logLevel.NOTHING }).admin();
  }

  async messages(): Promise<number> {
    this.connected ??= this.admin.connect().catch((error: unknown) => {
      this.connected = undefined;
      throw error;
    });
    await this.connected;
    const [ends, [committed]] = await Promise.all([this.admin.fetchTopicOffsets(this.topic), this.admin.fetchOffsets({ groupId: this.groupId, topics: [this.topic] })]);
    const done = new Map(committed.partitions.map((p) => [p.partition, Number(p.offset)]));
    // A partition the group never committed (-1) counts from the topic's low watermark.
    return ends.reduce((sum, end) => {
      const at = done.get(end.partition) ?? -1;
      return sum + Math.max(0, Number(end.high) - (at < 0 ? Number(end.low) : at));
    }, 0);
  }

  async close(): Promise<void> {
    if (this.connected) await this.admin.disconnect();
  }
}
