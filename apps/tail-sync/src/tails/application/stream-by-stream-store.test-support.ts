/**
 * Test support (imported by specs only): the real PostgreSQL event store, written the way
 * EventStoreDB is, one stream at a time.
 *
 * `EsdbEventStore.append` appends a call's writes one stream after the other: a conflict or a crash
 * at write k leaves writes 0..k-1 stored. No EventStoreDB server is reachable where the tests run,
 * so the writer's path for such stores (`StreamReservations`: claims first, releases last, a claim
 * trusted only when its tail holds it) runs on this store instead.
 */
import type {
  AllCheckpoint,
  AppendResult,
  EventStore,
  ReadAllOptions,
  ReadAllResult,
  StoredEvent,
  StreamWrite,
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
  /** What happens before a coming stream write: after `writesLeft` more, `interrupt` runs (once). */
  private interruption: { writesLeft: number; interrupt: (stored: number) => Promise<void> } | null = null;

  constructor(private readonly inner: EventStore) {}

  /** Stores `writes` more stream writes (across appends), then throws {@link SimulatedCrash} instead of the next one. */
  crashAfterWrites(writes: number): void {
    this.interruption = { writesLeft: writes, interrupt: (stored) => Promise.reject(new SimulatedCrash(stored)) };
  }

  /** Stores `writes` more stream writes (across appends), then holds the next one until released. */
  holdAfterWrites(writes: number): HeldWrite {
    let reached!: () => void;
    let release!: () => void;
    const held: HeldWrite = { reached: new Promise<void>((r) => (reached = r)), release: () => release() };
    const released = new Promise<void>((r) => (release = r));
    this.interruption = { writesLeft: writes, interrupt: () => (reached(), released) };
    return held;
  }

  async append(writes: StreamWrite[]): Promise<AppendResult> {
    if (writes.length === 0) return this.inner.append([]);
    const streams: Record<string, number> = {};
    let checkpoint: AllCheckpoint | null = null;
    for (const [i, write] of writes.entries()) {
      const interruption = this.interruption;
      if (interruption && interruption.writesLeft-- <= 0) {
        this.interruption = null;
        await interruption.interrupt(i);
      }
      const appended = await this.inner.append([write]);
      Object.assign(streams, appended.streams);
      if (checkpoint === null || !this.inner.isAtOrAfter(checkpoint, appended.checkpoint)) checkpoint = appended.checkpoint;
    }
    return { streams, checkpoint: checkpoint! };
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

  migrate(): Promise<void> {
    return this.inner.migrate();
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
