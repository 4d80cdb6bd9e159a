import { metricsRegistry, ScrapeRead, type KafkaConnection } from '@tailsync/service-kit';
import { Admin, Kafka, logLevel } from 'kafkajs';
import { Gauge } from 'prom-client';

/** A partition's messages the group has not committed yet. */
export interface PartitionLag {
  topic: string;
  partition: number;
  messages: number;
}

/**
 * Messages of the input topics (one per webhook event type) a consumer group has not committed yet: per partition on `/metrics`
 * (`kafka_consumer_group_lag`, the OpenTelemetry Kafka metrics' `kafka.consumer_group.lag`), summed
 * for the console.
 */
export class ConsumerLag {
  private readonly admin: Admin;
  private connected?: Promise<void>;

  constructor(kafka: KafkaConnection, clientId: string, private readonly groupId: string, private readonly topics: readonly string[]) {
    this.admin = new Kafka({ ...kafka, clientId, logLevel: logLevel.NOTHING }).admin();
    this.exportPerPartition();
  }

  async messages(): Promise<number> {
    return (await this.partitions()).reduce((sum, p) => sum + p.messages, 0);
  }

  async partitions(): Promise<PartitionLag[]> {
    this.connected ??= this.admin.connect().catch((error: unknown) => {
      this.connected = undefined;
      throw error;
    });
    await this.connected;
    const [ends, committed] = await Promise.all([
      Promise.all(this.topics.map(async (topic) => ({ topic, partitions: await this.admin.fetchTopicOffsets(topic) }))),
      this.admin.fetchOffsets({ groupId: this.groupId, topics: [...this.topics] }),
    ]);
    const done = new Map(committed.flatMap((t) => t.partitions.map((p) => [`${t.topic}:${p.partition}`, Number(p.offset)] as const)));
    // A partition the group never committed (-1) counts from the topic's low watermark.
    return ends.flatMap(({ topic, partitions }) =>
      partitions.map((end) => {
        const at = done.get(`${topic}:${end.partition}`) ?? -1;
        return { topic, partition: end.partition, messages: Math.max(0, Number(end.high) - (at < 0 ? Number(end.low) : at)) };
      }),
    );
  }

  async close(): Promise<void> {
    if (this.connected) await this.admin.disconnect();
  }

  /** Read from the broker at each scrape; a broker that does not answer in time leaves the series out of that scrape. */
  private exportPerPartition(): void {
    const name = 'kafka_consumer_group_lag';
    const partitions = new ScrapeRead<PartitionLag[]>('the consumer group lag', () => this.partitions(), []);
    const groupId = this.groupId;
    metricsRegistry.removeSingleMetric(name);
    new Gauge({
      name,
      help: 'Messages of a topic partition the consumer group has not committed yet (OpenTelemetry kafka.consumer_group.lag)',
      labelNames: ['group', 'topic', 'partition'] as const,
      registers: [metricsRegistry],
      async collect() {
        this.reset();
        for (const p of await partitions.current()) this.set({ group: groupId, topic: p.topic, partition: String(p.partition) }, p.messages);
      },
    });
  }
}
