import {
  ANY,
  AppendExpectedRevision,
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  Position,
  START,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
} from '@eventstore/db-client';
import type { AllStreamRecordedEvent, RecordedEvent } from '@eventstore/db-client';
import { comparePairs, isPairAtOrAfter, ORIGIN_VALUE, parsePair } from '../checkpoint';
import {
  AllCheckpoint,
  AppendResult,
  EventStore,
  ExpectedVersion,
  ReadAllOptions,
  ReadAllResult,
  StoredEvent,
  StreamWrite,
  validateWrites,
  WrongExpectedVersionError,
} from '../event-store.port';

export interface EsdbEventStoreOptions {
  /** Events read from `$all` per round trip while scanning past filtered-out events. Default 500. */
  readAllPageSize?: number;
}

function positionValue(p: Position): string {
  return `${p.commit}:${p.prepare}`;
}

function toPosition(value: string): Position {
  const [commit, prepare] = parsePair(value);
  return { commit, prepare };
}

const MAX_REAL_POSITION = 2n ** 62n;
function isRealPosition(p: Position | undefined): p is Position {
  return !!p && p.commit >= 0n && p.prepare >= 0n && p.commit < MAX_REAL_POSITION && p.prepare < MAX_REAL_POSITION;
}

function isStreamNotFound(err: unknown): boolean {
  return (err as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND;
}

function isSystem(e: { streamId: string; type: string }): boolean {
  return e.streamId.startsWith('$') || e.type.startsWith('$');
}

function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) ? (v as Record<string, unknown>) : {};
}

function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 0) return NO_STREAM;
  return BigInt(expected - 1);
}

function fromCurrentRevision(current: unknown): number {
  return typeof current === 'bigint' ? Number(current) + 1 : current === NO_STREAM ? 0 : -1;
}

/**
 * EventStoreDB adapter (`@eventstore/db-client`).
 *
 * NOT atomic across streams: the writes of one `append` are appended one stream after the other, in
 * the given order. If write k fails (version conflict, outage), writes 0..k-1 stay stored. Callers
 * retry the whole call with the same event ids: the stored writes are then idempotent no-ops.
 *
 * `StoredEvent.position` and checkpoint values are `"<commit>:<prepare>"` positions in `$all`.
 * `readAll` excludes system events (stream or type starting with `$`); with a prefix filter the
 * checkpoint may advance past scanned, filtered-out events (never past an unreturned matching one).
 */
export class EsdbEventStore implements EventStore {
  readonly atomicMultiStream = false;
  readonly client: EventStoreDBClient;
  private readonly pageSize: number;

  constructor(connectionString: string, options: EsdbEventStoreOptions = {}) {
    // The client connects lazily, on the first call.
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.pageSize = Math.max(1, options.readAllPageSize ?? 500);
  }

  /** Nothing to create: streams are implicit in EventStoreDB. */
  async migrate(): Promise<void> {
    /* no-op */
  }

  async append(writes: StreamWrite[]): Promise<AppendResult> {
    validateWrites(writes);
    const streams: Record<string, number> = {};
    const checkpoints: string[] = [];
    for (const w of writes) {
      const { version, checkpoint } = await this.appendOne(w);
      streams[w.streamId] = version;
      if (checkpoint) checkpoints.push(checkpoint);
    }
    // The position an append reports is that of its transaction, not necessarily of its *last* event.
    // The writes are sequential, so the exact position of the last write's last event covers the call.
    const last = [...writes].reverse().find((w) => w.events.length > 0);
    if (last) {
      const exact = await this.positionOfVersion(last.streamId, streams[last.streamId]);
      if (exact) checkpoints.push(exact);
    }
    const checkpoint = checkpoints.reduce((acc, v) => (comparePairs(v, acc) > 0 ? v : acc), ORIGIN_VALUE);
    return { streams, checkpoint: { value: checkpoint } };
  }

  async readStream(streamId: string, fromVersion = 0): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: fromVersion > 0 ? BigInt(fromVersion) : START,
        direction: FORWARDS,
      })) {
        if (resolved.event) out.push(this.toStoredEvent(resolved.event));
      }
    } catch (err) {
      if (isStreamNotFound(err)) return [];
      throw err;
    }
    return out;
  }

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
      for await (const resolved of this.client.readAll({ fromPosition: from, maxCount: pageSize, direction: FORWARDS })) {
        read++;
        const e = resolved.event;
        if (!e) continue;
        lastPosition = e.position;
        const value = positionValue(e.position);
        // Reading from a position includes the event at it: skip what the checkpoint already covers.
        if (scanned !== null && comparePairs(value, scanned) <= 0) continue;
        if (isSystem(e) || (prefixes && !prefixes.some((p) => e.streamId.startsWith(p)))) {
          scanned = value;
          continue;
        }
        events.push(this.toStoredEvent(e));
        scanned = value;
        if (events.length >= limit) break;
      }
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

  async ping(): Promise<void> {
    for await (const _ of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) {
      void _;
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  // ---------------------------------------------------------------------------------------------

  private async appendOne(w: StreamWrite): Promise<{ version: number; checkpoint: string | null }> {
    if (w.events.length === 0) {
      const version = await this.currentVersion(w.streamId);
      if (w.expectedVersion !== 'any' && w.expectedVersion !== version) {
        throw new WrongExpectedVersionError(w.streamId, w.expectedVersion, version);
      }
      return { version, checkpoint: null };
    }
    const events = w.events.map((e) =>
      jsonEvent({ id: e.eventId.toLowerCase(), type: e.type, data: e.data, metadata: e.metadata ?? {} }),
    );
    try {
      const result = await this.client.appendToStream(w.streamId, events, {
        expectedRevision: toExpectedRevision(w.expectedVersion),
      });
      const version = Number(result.nextExpectedRevision) + 1;
      // Some server versions report no position (e.g. for a write deduplicated by the server): fall back to
      // the stream's last event, which is at or after ours, so waiting for it is still correct.
      const checkpoint = isRealPosition(result.position) ? positionValue(result.position) : await this.lastEventPosition(w.streamId);
      return { version, checkpoint };
    } catch (err) {
      if (err instanceof EsdbWrongExpectedVersionError) {
        // A retried write whose events are already stored at the same place is a success
        // (EventStoreDB dedupes itself in most cases; this covers the rest).
        const stored = await this.storedAtSamePlace(w);
        if (stored) return stored;
        throw new WrongExpectedVersionError(w.streamId, w.expectedVersion, fromCurrentRevision(err.actualVersion));
      }
      throw err;
    }
  }

  private async storedAtSamePlace(w: StreamWrite): Promise<{ version: number; checkpoint: string | null } | null> {
    if (w.expectedVersion === 'any') return null;
    const stored = await this.readStream(w.streamId, w.expectedVersion);
    const slice = stored.slice(0, w.events.length);
    if (slice.length !== w.events.length) return null;
    const same = slice.every((s, i) => s.eventId.toLowerCase() === w.events[i].eventId.toLowerCase());
    if (!same) return null;
    return { version: w.expectedVersion + w.events.length, checkpoint: slice[slice.length - 1].position };
  }

  private async currentVersion(streamId: string): Promise<number> {
    try {
      for await (const r of this.client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
        if (r.event) return Number(r.event.revision) + 1;
      }
    } catch (err) {
      if (isStreamNotFound(err)) return 0;
      throw err;
    }
    return 0;
  }

  private async positionOfVersion(streamId: string, version: number): Promise<string | null> {
    for await (const r of this.client.readStream(streamId, { fromRevision: BigInt(version - 1), direction: FORWARDS, maxCount: 1 })) {
      if (r.event?.position && Number(r.event.revision) === version - 1) return positionValue(r.event.position);
    }
    return null;
  }

  private async lastEventPosition(streamId: string): Promise<string | null> {
    for await (const r of this.client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
      if (r.event?.position) return positionValue(r.event.position);
    }
    return null;
  }

  private toStoredEvent(e: RecordedEvent | AllStreamRecordedEvent): StoredEvent {
    return {
      streamId: e.streamId,
      version: Number(e.revision) + 1,
      eventId: e.id,
      type: e.type,
      data: asObject(e.data),
      metadata: asObject(e.metadata),
      position: e.position ? positionValue(e.position) : '',
      recordedAt: e.created,
    };
  }
}
