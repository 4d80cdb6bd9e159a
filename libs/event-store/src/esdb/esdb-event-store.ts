import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  Position,
  START,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
} from '@eventstore/db-client';
import type { AllStreamResolvedEvent, ResolvedEvent } from '@eventstore/db-client';
import { comparePairs, isPairAtOrAfter } from '../checkpoint';
import {
  AllCheckpoint,
  AppendResult,
  EventStore,
  EventStoreUnavailableError,
  ReadAllOptions,
  ReadAllResult,
  StoredEvent,
  StreamWrite,
  validateWrites,
  WrongExpectedVersionError,
} from '../event-store.port';
import { appendStreamByStream, STREAM_WRITE_CONCURRENCY, StreamWriteResult } from '../stream-by-stream-append';
import { CancellableRead, readWithin, settleWithin } from './bounded-read';
import { ESDB_MAX_APPEND_SIZE, withinAppendSize } from './append-size';
import { CallSlots } from './call-slots';
import { credentialsOf, isStreamNotFound, toPortError } from './esdb-errors';
import { isRealPosition, positionValue, toPosition } from './esdb-positions';
import { isSystem, toStoredEvent } from './esdb-recorded-events';
import { storedAtSamePlace } from './stored-at-same-place';
import { fromCurrentRevision, toExpectedRevision } from './esdb-revisions';

export interface EsdbEventStoreOptions {
  /** Events read from `$all` per round trip while scanning past filtered-out events. Default 500. */
  readAllPageSize?: number;
  /**
   * Longest time one call to the server (a read, a stream write, the ping) may take; beyond it the
   * call is given up as {@link EventStoreUnavailableError}. Default 5,000 ms.
   */
  callTimeoutMs?: number;
  /** Calls this store has in flight at once (EventStoreDB serves 100 per connection). Default 64. */
  maxConcurrentCalls?: number;
  /** Stream writes of one `append` in flight at once. Default {@link STREAM_WRITE_CONCURRENCY}. */
  appendConcurrency?: number;
  /** Attempts of a stream write that failed transiently, resent with the same event ids. Default 3. */
  writeAttempts?: number;
  /**
   * The server's `MaxAppendSize`: a stream write whose events pass it is sent as several appends,
   * each within it. Default {@link ESDB_MAX_APPEND_SIZE} (the server's default).
   */
  maxAppendSize?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * EventStoreDB adapter (`@eventstore/db-client`).
 *
 * NOT atomic across streams: the writes of one `append` are appended each on its own, a bounded
 * number at once (`appendStreamByStream`). If one fails (version conflict, outage), others stay
 * stored. Callers retry the whole call with the same event ids: the stored writes are then
 * idempotent no-ops.
 *
 * Every call is bounded in time and in number (see the options). `StoredEvent.position` and
 * checkpoint values are `"<commit>:<prepare>"` positions in `$all`. `readAll` excludes system
 * events (stream or type starting with `$`); its checkpoint may advance past scanned,
 * filtered-out events (never past an unreturned matching one).
 */
export class EsdbEventStore implements EventStore {
  readonly atomicMultiStream = false;
  readonly client: EventStoreDBClient;
  private readonly pageSize: number;
  private readonly callTimeoutMs: number;
  private readonly appendConcurrency: number;
  private readonly writeAttempts: number;
  private readonly maxAppendSize: number;
  private readonly slots: CallSlots;
  private readonly user: string | null;

  constructor(connectionString: string, options: EsdbEventStoreOptions = {}) {
    // 6.2.1 only warns that it ignores tlsVerifyCert=false, and then fails every call on a
    // self-signed certificate: said at start instead.
    if (/[?&]tlsVerifyCert=false/i.test(connectionString) && !/[?&]tlsCAFile=/i.test(connectionString)) {
      throw new TypeError(
        'EventStoreDB connection string: tlsVerifyCert=false has no effect with @eventstore/db-client 6.2.1; ' +
          "give the server's CA certificate with tlsCAFile=<path> instead",
      );
    }
    // The client connects lazily, on the first call.
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.user = credentialsOf(connectionString);
    this.pageSize = Math.max(1, options.readAllPageSize ?? 500);
    this.callTimeoutMs = Math.max(1, options.callTimeoutMs ?? 5_000);
    this.appendConcurrency = Math.max(1, options.appendConcurrency ?? STREAM_WRITE_CONCURRENCY);
    this.writeAttempts = Math.max(1, options.writeAttempts ?? 3);
    this.maxAppendSize = Math.max(1, options.maxAppendSize ?? ESDB_MAX_APPEND_SIZE);
    this.slots = new CallSlots(options.maxConcurrentCalls ?? 64);
  }

  append(writes: StreamWrite[]): Promise<AppendResult> {
    validateWrites(writes);
    return appendStreamByStream(writes, (w) => this.appendOne(w), { concurrency: this.appendConcurrency, isAtOrAfter: isPairAtOrAfter });
  }

  async readStream(streamId: string, fromVersion = 0): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    try {
      await this.read(`reading stream '${streamId}'`, streamId, () =>
        this.client.readStream(streamId, { fromRevision: fromVersion > 0 ? BigInt(fromVersion) : START, direction: FORWARDS }),
        (resolved) => {
          if (resolved.event) out.push(toStoredEvent(resolved.event));
        },
      );
    } catch (err) {
      if (isStreamNotFound(err)) return [];
      throw err;
    }
    return out;
  }

  /** One read per stream, all at once: the store's call slots bound how many reach the server together. */
  async readStreams(streamIds: string[]): Promise<Map<string, StoredEvent[]>> {
    const unique = [...new Set(streamIds)];
    const results = await Promise.all(unique.map((id) => this.readStream(id)));
    return new Map(unique.map((id, i) => [id, results[i]]));
  }

  async readAll(after: AllCheckpoint | null, limit: number, opts: ReadAllOptions = {}): Promise<ReadAllResult> {
    if (!Number.isInteger(limit) || limit <= 0) return { events: [], checkpoint: after };
    const prefixes = opts.streamPrefixes && opts.streamPrefixes.length > 0 ? opts.streamPrefixes : null;
    const events: StoredEvent[] = [];
    let scanned: string | null = after?.value ?? null;
    let from: Position | typeof START = after ? toPosition(after.value) : START;
    for (;;) {
      // +1: a read from a position returns the event at it again (skipped below); >= 2 guarantees progress.
      const pageSize = Math.max(2, prefixes ? Math.max(this.pageSize, limit + 1) : limit + 1);
      let read = 0;
      let lastPosition: Position | undefined;
      await this.read('reading $all', undefined, () => this.client.readAll({ fromPosition: from, maxCount: pageSize, direction: FORWARDS }), (resolved) => {
        read++;
        const e = resolved.event;
        if (!e) return;
        lastPosition = e.position;
        const value = positionValue(e.position);
        // Reading from a position includes the event at it: skip what the checkpoint already covers.
        if (scanned !== null && comparePairs(value, scanned) <= 0) return;
        scanned = value;
        if (isSystem(e) || (prefixes && !prefixes.some((p) => e.streamId.startsWith(p)))) return;
        events.push(toStoredEvent(e));
        if (events.length >= limit) return false;
      });
      if (events.length >= limit || read < pageSize || !lastPosition) break;
      from = lastPosition;
    }
    // `scanned` is the last event read contiguously: the last returned one, or a later event that
    // was filtered out (system event, other prefix), so the next call does not scan it again.
    return { events, checkpoint: scanned === null ? after : { value: scanned } };
  }

  isAtOrAfter(a: AllCheckpoint | null, b: AllCheckpoint): boolean {
    return isPairAtOrAfter(a, b);
  }

  async headCheckpoint(): Promise<AllCheckpoint | null> {
    let head: AllCheckpoint | null = null;
    await this.read('reading $all', undefined, () => this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 }), (r) => {
      if (r.event?.position) head = { value: positionValue(r.event.position) };
    });
    return head;
  }

  async ping(): Promise<void> {
    await this.headCheckpoint();
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  // ---------------------------------------------------------------------------------------------

  /** One read call: in a call slot, within the time-out, cancelled unless read to its end, errors as the port's. */
  private async read<T extends ResolvedEvent | AllStreamResolvedEvent>(
    what: string,
    streamId: string | undefined,
    open: () => CancellableRead<T>,
    take: (item: T) => boolean | void,
  ): Promise<void> {
    await this.slots.run(async () => {
      try {
        await readWithin(open(), this.callTimeoutMs, what, take);
      } catch (err) {
        throw toPortError(err, { what, streamId, user: this.user });
      }
    });
  }

  /**
   * One stream write, resent with the same events after a transient failure: a write that timed
   * out may have been stored, and the same ids at the same place make the resend a no-op success.
   */
  private async appendOne(w: StreamWrite): Promise<StreamWriteResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.appendOnce(w, attempt > 1);
      } catch (err) {
        if (!(err instanceof EventStoreUnavailableError) || attempt >= this.writeAttempts) throw err;
        await sleep(Math.random() * 50 * attempt);
      }
    }
  }

  private async appendOnce(w: StreamWrite, resent: boolean): Promise<StreamWriteResult> {
    if (w.events.length === 0) {
      const version = await this.currentVersion(w.streamId);
      if (w.expectedVersion !== 'any' && w.expectedVersion !== version) {
        throw new WrongExpectedVersionError(w.streamId, w.expectedVersion, version);
      }
      return { version, checkpoint: null };
    }
    // EventStoreDB compares only the ids of a write it takes for a retry: a resent write's types
    // are checked against what is stored, as the port promises.
    if (resent) {
      const stored = await storedAtSamePlace(w, (id, from) => this.readStream(id, from));
      if (stored) return stored;
    }
    // Over the server's append-size limit, the write goes as consecutive appends, each expecting
    // the version the one before left: a resend then finds the stored ones at their place.
    let expected = w.expectedVersion;
    let result: StreamWriteResult | null = null;
    for (const events of withinAppendSize(w.events, this.maxAppendSize)) {
      result = await this.appendWithin({ streamId: w.streamId, expectedVersion: expected, events });
      expected = expected === 'any' ? 'any' : expected + events.length;
    }
    return result!;
  }

  /** One append call. */
  private async appendWithin(w: StreamWrite): Promise<StreamWriteResult> {
    const events = w.events.map((e) =>
      jsonEvent({ id: e.eventId.toLowerCase(), type: e.type, data: e.data, metadata: e.metadata ?? {} }),
    );
    const what = `appending to stream '${w.streamId}'`;
    try {
      const result = await this.slots.run(() =>
        settleWithin(
          this.client.appendToStream(w.streamId, events, { expectedRevision: toExpectedRevision(w.expectedVersion), deadline: this.callTimeoutMs }),
          this.callTimeoutMs,
          what,
        ),
      );
      const version = Number(result.nextExpectedRevision) + 1;
      // Since 22.10 the server reports the position of the write's last event (for a retry it
      // recognised, the original's); an older one may report none: then the event is read back.
      const checkpoint = isRealPosition(result.position) ? positionValue(result.position) : await this.positionOfVersion(w.streamId, version);
      return { version, checkpoint: checkpoint === null ? null : { value: checkpoint } };
    } catch (err) {
      if (err instanceof EsdbWrongExpectedVersionError) {
        // A retried write whose events are already stored at the same place is a success
        // (EventStoreDB dedupes recent writes itself; this covers the rest).
        const stored = await storedAtSamePlace(w, (id, from) => this.readStream(id, from));
        if (stored) return stored;
        throw new WrongExpectedVersionError(w.streamId, w.expectedVersion, fromCurrentRevision(err.actualVersion));
      }
      throw toPortError(err, { what, streamId: w.streamId, user: this.user });
    }
  }

  private async currentVersion(streamId: string): Promise<number> {
    let version = 0;
    try {
      await this.read(`reading the end of stream '${streamId}'`, streamId, () =>
        this.client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 }),
        (r) => {
          if (r.event) version = Number(r.event.revision) + 1;
        },
      );
    } catch (err) {
      if (isStreamNotFound(err)) return 0;
      throw err;
    }
    return version;
  }

  private async positionOfVersion(streamId: string, version: number): Promise<string | null> {
    let position: string | null = null;
    await this.read(`reading stream '${streamId}'`, streamId, () =>
      this.client.readStream(streamId, { fromRevision: BigInt(version - 1), direction: FORWARDS, maxCount: 1 }),
      (r) => {
        if (r.event?.position && Number(r.event.revision) === version - 1) position = positionValue(r.event.position);
      },
    );
    return position;
  }

}
