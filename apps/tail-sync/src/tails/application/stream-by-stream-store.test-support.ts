/**
 * Test support (imported by specs only): the real PostgreSQL event store, written the way
 * EventStoreDB is, one stream at a time.
 *
 * `EsdbEventStore.append` appends a call's writes each on its own (`appendStreamByStream`, the same
 * code here): a crash before write k starts leaves writes 0..k-1 stored, a conflict at write k may
 * leave later ones in flight beside it stored too. No EventStoreDB server is reachable where the tests run,
 * so the writer's path for such stores (`StreamReservations`: claims first, releases last, a claim
 * trusted only when its tail holds it) runs on this store instead.
 */
import {
  appendStreamByStream,
  STREAM_WRITE_CONCURRENCY,
  EventStoreUnavailableError,
  type AllCheckpoint,
  type AppendResult,
  type EventStore,
  type ReadAllOptions,
  type ReadAllResult,
  type StoredEvent,
  type StreamWrite,
  type StreamWriteResult,
} from '@tailsync/event-store';

/** What an append interrupted by `crashAfterWrites` throws, like a process killed mid-append. */
export class SimulatedCrash extends Error {
  constructor(readonly writesStored: number) {
    super(`simulated crash after ${writesStored} stream write(s)`);
    this.name = 'SimulatedCrash';
  }
}

/** A write held by {@link StreamByStreamStore.holdAfterWrites}. */
export interface HeldWrite {
  /** Resolves once the held write is waiting. */
  reached: Promise<void>;
  /** Lets it (and the rest of its append) go on. */
  release(): void;
}

export class StreamByStreamStore implements EventStore {
  readonly atomicMultiStream = false;
  /** What happens to a coming stream write: after `writesLeft` more, `interrupt` runs instead of it (once). */
  private interruption: {
    writesLeft: number;
    interrupt: (stored: number, write: () => Promise<StreamWriteResult>) => Promise<StreamWriteResult>;
  } | null = null;

  constructor(
    private readonly inner: EventStore,
    private readonly options: {
      /** Added to every stream write, as a network disk's latency (measurements). Default 0. */
      appendDelayMs?: number;
      /** Stream writes of one call in flight at once. Default as `EsdbEventStore`. */
      concurrency?: number;
    } = {},
  ) {}

  /** Stores `writes` more stream writes (across appends), then throws {@link SimulatedCrash} instead of the next one. */
  crashAfterWrites(writes: number): void {
    this.interruption = { writesLeft: writes, interrupt: (stored) => Promise.reject(new SimulatedCrash(stored)) };
  }

  /** Stores `writes` more stream writes, then stores the next one but answers it as timed out (the answer is lost). */
  loseAnswerAfterWrites(writes: number): void {
    this.interruption = {
      writesLeft: writes,
      interrupt: async (_stored, write) => {
        await write();
        throw new EventStoreUnavailableError('simulated time-out after the write was stored');
      },
    };
  }

  /** Stores `writes` more stream writes (across appends), then holds the next one until released. */
  holdAfterWrites(writes: number): HeldWrite {
    let reached!: () => void;
    let release!: () => void;
    const held: HeldWrite = { reached: new Promise<void>((r) => (reached = r)), release: () => release() };
    const released = new Promise<void>((r) => (release = r));
    this.interruption = { writesLeft: writes, interrupt: async (_stored, write) => (reached(), await released, write()) };
    return held;
  }

  async append(writes: StreamWrite[]): Promise<AppendResult> {
    if (writes.length === 0) return this.inner.append([]);
    let started = 0;
    const store = async (write: StreamWrite): Promise<StreamWriteResult> => {
      if (this.options.appendDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.appendDelayMs));
      const appended = await this.inner.append([write]);
      return { version: appended.streams[write.streamId], checkpoint: appended.checkpoint };
    };
    const appendOne = (write: StreamWrite) => {
      const interruption = this.interruption;
      const index = started++;
      if (interruption && interruption.writesLeft-- <= 0) {
        this.interruption = null;
        return interruption.interrupt(index, () => store(write));
      }
      return store(write);
    };
    return appendStreamByStream(writes, appendOne, {
      concurrency: this.options.concurrency ?? STREAM_WRITE_CONCURRENCY,
      isAtOrAfter: (a, b) => this.inner.isAtOrAfter(a, b),
    });
  }

  readStream(streamId: string, fromVersion?: number): Promise<StoredEvent[]> {
    return this.inner.readStream(streamId, fromVersion);
  }

  readStreams(streamIds: string[]): Promise<Map<string, StoredEvent[]>> {
    return this.inner.readStreams(streamIds);
  }

  readAll(after: AllCheckpoint | null, limit: number, opts?: ReadAllOptions): Promise<ReadAllResult> {
    return this.inner.readAll(after, limit, opts);
  }

  isAtOrAfter(a: AllCheckpoint | null, b: AllCheckpoint): boolean {
    return this.inner.isAtOrAfter(a, b);
  }

  headCheckpoint(): Promise<AllCheckpoint | null> {
    return this.inner.headCheckpoint();
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
