import { ClientKafka, ServerKafka } from '@nestjs/microservices';
import { KafkaReplyPartitionAssigner } from '@nestjs/microservices/helpers';
import { AssignerProtocol, type EachBatchPayload, type EachMessagePayload, type GroupMemberAssignment, type Kafka, type Producer, type TopicPartitionOffset } from 'kafkajs';
import { batchingProducer } from './batching-producer';
import { PartitionOffsets } from './partition-offsets';
import { PeriodicOffsetCommits } from './periodic-offset-commits';

/** Requests one process handles at the same time, over all partitions (the fetch waits beyond it). */
const MAX_IN_FLIGHT = 256;
/** How long `close()` lets the requests in flight finish before it disconnects. */
const DRAIN_TIMEOUT_MS = 10_000;
/**
 * The least time between two commits of request offsets. Committing after every answered request
 * took one OffsetCommit per request batch (~90 a second under single `PUT /Tails`, more than the
 * fetches); a crash now re-delivers at most this much more of answered requests, which the
 * handlers already take again without harm (a create-or-map again is "no action").
 */
const COMMIT_INTERVAL_MS = 100;
/**
 * How often a gateway copy commits its reply offsets. Replies matter only to the copy that waits
 * for them, and after a restart it skips those for requests it no longer waits for: the commits
 * only keep a restart from reading old replies. kafkajs (`autoCommit`) committed after every fetch
 * that brought replies, a third of the gateway's Kafka requests.
 */
const REPLY_COMMIT_INTERVAL_MS = 5_000;

function withBatchingProducers(kafka: Kafka): Kafka {
  const producer = kafka.producer.bind(kafka);
  kafka.producer = (config) => batchingProducer(producer(config));
  return kafka;
}

/**
 * Nest's Kafka server, changed for throughput:
 * - requests are handed over as they are fetched and run concurrently, and the consumer fetches on
 *   while they run. Nest's server awaited each request before the next of its partition (one
 *   request per partition in flight), and kafkajs fetches again only once the previous fetch's
 *   batches are processed: a request that arrived during a slow one (a 1,000-tail call, a webhook
 *   test call) waited for it;
 * - at most `MAX_IN_FLIGHT` requests run at once: beyond, the fetch waits;
 * - offsets are committed by this server (`PartitionOffsets`), only past requests that have all
 *   been answered, so a request in flight when the process dies is delivered again; at most one
 *   commit per `COMMIT_INTERVAL_MS`. A request
 *   whose handling failed is delivered again at once (the partition is sought back to it); one
 *   delivered again while it runs here, or after it was answered, is not handled twice;
 * - replies share produce requests (`batchingProducer`).
 */
export class ConcurrentServerKafka extends ServerKafka {
  private readonly offsets = new Map<string, PartitionOffsets>();
  private inFlight = 0;
  private readonly slotWaiters: (() => void)[] = [];
  private readonly drained: (() => void)[] = [];
  private readonly commits = new PeriodicOffsetCommits(() => this.consumer ?? undefined, {
    intervalMs: COMMIT_INTERVAL_MS,
    due: () =>
      [...this.offsets].flatMap(([key, offsets]) => {
        const offset = offsets.toCommit();
        if (offset === null) return [];
        const cut = key.lastIndexOf('|');
        return [{ topic: key.slice(0, cut), partition: Number(key.slice(cut + 1)), offset }];
      }),
    committed: (positions) => {
      for (const { topic, partition, offset } of positions) this.offsets.get(`${topic}|${partition}`)?.markCommitted(offset);
    },
  });
  private closing = false;
  /** Routes by pattern (the request's topic), worked out once per topic. */
  private readonly routes = new Map<string, string>();

  override createClient<T = Kafka>(): T {
    return withBatchingProducers(super.createClient() as Kafka) as T;
  }

  /**
   * Nest's own tries `JSON.parse` on every request's pattern first, and a topic name is not JSON:
   * a SyntaxError per request.
   */
  override getRouteFromPattern(pattern: string): string {
    let route = this.routes.get(pattern);
    if (route === undefined) {
      route = super.getRouteFromPattern(pattern);
      if (this.messageHandlers.has(route)) this.routes.set(pattern, route);
    }
    return route;
  }

  override async bindEvents(consumer: NonNullable<ServerKafka['consumer']>): Promise<void> {
    const patterns = [...this.messageHandlers.keys()];
    if (patterns.length > 0) await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics: patterns });
    // A new assignment: forget the partitions that went to another copy (it answers them from the committed position).
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      const assigned = new Set(Object.entries(payload.memberAssignment).flatMap(([topic, partitions]) => partitions.map((p) => `${topic}|${p}`)));
      for (const key of this.offsets.keys()) if (!assigned.has(key)) this.offsets.delete(key);
    });
    await consumer.run({
      ...(this.options.run ?? {}),
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(consumer, payload),
    });
  }

  override async close(): Promise<void> {
    // Take no more requests, let those in flight answer, and commit past them.
    this.closing = true;
    this.slotWaiters.splice(0).forEach((wake) => wake());
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
        this.drained.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    await this.commits.close().catch(() => undefined);
    await super.close();
  }

  private async handleBatch(consumer: NonNullable<ServerKafka['consumer']>, { batch, resolveOffset, heartbeat }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    const key = `${topic}|${partition}`;
    let offsets = this.offsets.get(key);
    if (!offsets) this.offsets.set(key, (offsets = new PartitionOffsets()));
    // Keep the group membership alive while the fetch waits for a free slot (kafkajs heartbeats between batches).
    const beat = setInterval(() => heartbeat().catch(() => undefined), 1_000);
    try {
      for (const message of batch.messages) {
        if (this.closing) return; // not resolved: delivered again, to this copy's successor
        if (!offsets.begin(message.offset)) {
          resolveOffset(message.offset);
          continue;
        }
        await this.slot();
        if (this.closing) {
          offsets.failed(message.offset);
          this.release();
          return;
        }
        resolveOffset(message.offset);
        this.handleMessage({ topic, partition, message, heartbeat, pause: () => () => undefined }).then(
          () => {
            offsets.succeeded(message.offset);
            this.release();
            this.commits.schedule();
          },
          (error: unknown) => {
            offsets.failed(message.offset);
            this.release();
            this.logger.error(`Request at ${key}@${message.offset} failed; delivering it again: ${(error as Error)?.message ?? error}`);
            if (!this.closing) consumer.seek({ topic, partition, offset: message.offset });
          },
        );
      }
    } finally {
      clearInterval(beat);
    }
  }

  private slot(): Promise<void> {
    if (this.inFlight < MAX_IN_FLIGHT || this.closing) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) =>
      this.slotWaiters.push(() => {
        this.inFlight++;
        resolve();
      }),
    );
  }

  private release(): void {
    this.inFlight--;
    if (this.inFlight < MAX_IN_FLIGHT) this.slotWaiters.shift()?.();
    if (this.inFlight === 0) this.drained.splice(0).forEach((done) => done());
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
 * Nest's Kafka client, with its requests sharing produce requests (`batchingProducer`), one reply
 * partition per topic (`OneReplyPartitionAssigner`) and reply offsets committed every
 * `REPLY_COMMIT_INTERVAL_MS`.
 */
export class BatchingClientKafka extends ClientKafka {
  /** The next reply offset to commit, by `topic|partition`. */
  private readonly replyOffsets = new Map<string, TopicPartitionOffset>();
  private replyCommits: NodeJS.Timeout | null = null;

  override createClient<T = Kafka>(): T {
    return withBatchingProducers(super.createClient() as Kafka) as T;
  }

  override connect(): Promise<Producer> {
    const consumer = (this.options.consumer ??= { groupId: this.groupId });
    consumer.partitionAssigners = [(config) => new OneReplyPartitionAssigner(this, config)];
    this.options.run = { ...(this.options.run ?? {}), autoCommit: false };
    this.replyCommits ??= setInterval(() => void this.commitReplies(), REPLY_COMMIT_INTERVAL_MS).unref();
    return super.connect();
  }

  override createResponseCallback(): (payload: EachMessagePayload) => unknown {
    const handle = super.createResponseCallback();
    return (payload) => {
      const { topic, partition, message } = payload;
      this.replyOffsets.set(`${topic}|${partition}`, { topic, partition, offset: String(BigInt(message.offset) + 1n) });
      return handle(payload);
    };
  }

  override async close(): Promise<void> {
    if (this.replyCommits) clearInterval(this.replyCommits);
    this.replyCommits = null;
    await this.commitReplies();
    await super.close();
  }

  /** Commits past the replies read since the last commit; one that fails is left to the next. */
  private async commitReplies(): Promise<void> {
    if (this.replyOffsets.size === 0 || !this._consumer) return;
    const due = [...this.replyOffsets];
    this.replyOffsets.clear();
    await this._consumer.commitOffsets(due.map(([, offset]) => offset)).catch(() => {
      // Kept for the next commit, unless a later reply of the partition came meanwhile.
      for (const [key, offset] of due) if (!this.replyOffsets.has(key)) this.replyOffsets.set(key, offset);
    });
  }
}
