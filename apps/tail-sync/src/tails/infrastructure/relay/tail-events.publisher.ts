import type { ClientBase } from 'pg';
import type { Message } from 'kafkajs';
import type { Sender } from '@tailsync/service-kit';
import { Counter, Gauge } from 'prom-client';
import type { AllCheckpoint, EventStore, StoredEvent } from '@tailsync/event-store';
import { metricsRegistry, registeredMetric } from '@tailsync/service-kit';
import { tailIdOfStream } from '../../domain/stream-ids';
import type { ProjectionCheckpoints } from '../projection-runner/projection-checkpoints';
import type { CatchUpStats, ProjectionWriter } from '../projection-runner/projection-writer';
import { historiesInBatch, mappedIdsAfterEachVersion, tailEventMessages } from './tail-messages.fold';
import { endPublishSpans, startPublishSpans } from './publish-spans';

const published = (): Counter => {
  const name = 'tailsync_tail_events_published_total';
  return registeredMetric(name, () => new Counter({ name, help: 'Tail events published to Kafka by the relay', registers: [metricsRegistry] }));
};
const lagSeconds = (): Gauge => {
  const name = 'tailsync_tail_events_relay_lag_seconds';
  return registeredMetric(name, () => new Gauge({ name, help: 'Age (recording to publication) of the newest tail event the relay published', registers: [metricsRegistry] }));
};

/** A batch's messages, ready to send. */
export interface TailEventMessages {
  /** Messages in global order, split by size; sent one chunk after the other. */
  chunks: Message[][];
  published: number;
  /** Recording time of the newest event (lag metric). */
  newest: Date | null;
}

/**
 * Publishes a batch of tail events to Kafka, keyed `<domain>:<tailId>`, each with the tail's
 * Mapped IDs after it: `send` with `acks: -1` (sequential sends, so a tail's events stay in
 * order), then the checkpoint. A crash between the two republishes that batch only (consumers
 * dedupe on `eventId`).
 */
export class TailEventsPublisher implements ProjectionWriter<TailEventMessages> {
  private readonly publishedTotal = published();
  private readonly lag = lagSeconds();

  constructor(
    private readonly eventStore: EventStore,
    private readonly producer: Pick<Sender, 'send'>,
    private readonly topic: string,
    private readonly checkpoints: ProjectionCheckpoints,
    private readonly maxBytesPerSend: number,
  ) {}

  /** The batch's tail streams that did not start in it are read in one `readStreams` call. */
  async prepare(all: StoredEvent[]): Promise<TailEventMessages> {
    const events = all.filter((e) => tailIdOfStream(e.streamId) !== null);
    const prepared: TailEventMessages = { chunks: [], published: events.length, newest: null };
    if (events.length === 0) return prepared;
    prepared.newest = events[events.length - 1].recordedAt;

    const { histories, toRead } = historiesInBatch(events);
    if (toRead.length > 0) for (const [streamId, history] of await this.eventStore.readStreams(toRead)) histories.set(streamId, history);
    const mappedIdsAt = new Map<string, string[][]>();
    for (const [streamId, history] of histories) mappedIdsAt.set(streamId, mappedIdsAfterEachVersion(history));
    prepared.chunks = tailEventMessages(events, mappedIdsAt, this.maxBytesPerSend);
    return prepared;
  }

  async write(client: ClientBase, batch: TailEventMessages, checkpoint: AllCheckpoint): Promise<number> {
    for (const chunk of batch.chunks) await this.send(chunk);
    await this.checkpoints.store(client, checkpoint);
    if (batch.newest) {
      this.publishedTotal.inc(batch.published);
      this.lag.set(Math.max(0, (Date.now() - batch.newest.getTime()) / 1000));
    }
    return batch.published;
  }

  /** A run that published nothing: the relay is caught up. */
  afterRun(stats: CatchUpStats): void {
    if (stats.tailEvents === 0) this.lag.set(0);
  }

  private async send(messages: Message[]): Promise<void> {
    const spans = startPublishSpans(this.topic, messages);
    try {
      await this.producer.send({ topic: this.topic, acks: -1, messages });
    } catch (error) {
      endPublishSpans(spans, error);
      throw error;
    }
    endPublishSpans(spans);
  }
}
