/**
 * The event store port: what the command side and the projections need from an event store.
 * Framework-free; the apps wrap an adapter in their own providers.
 */

export interface NewEvent {
  /** UUID chosen by the caller; the idempotency key of the event (see {@link EventStore.append}). */
  eventId: string;
  type: string;
  data: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface StoredEvent extends Required<NewEvent> {
  streamId: string;
  /** 1-based revision within the stream. */
  version: number;
  /**
   * Opaque global position, comparable only via the store. In both adapters it is the value of the
   * {@link AllCheckpoint} *at* this event: `{ value: event.position }` is a valid checkpoint meaning
   * "this event and everything before it in the global order has been read".
   */
  position: string;
  recordedAt: Date;
}

/** Current number of events in the stream (0 = stream must not exist), or 'any' (no check). */
export type ExpectedVersion = number | 'any';

export interface StreamWrite {
  streamId: string;
  expectedVersion: ExpectedVersion;
  events: NewEvent[];
}

/** Opaque, serialisable position in the global log; stored by projections. */
export interface AllCheckpoint {
  value: string;
}

export interface ReadAllResult {
  events: StoredEvent[];
  /** Checkpoint after the last returned event, or the input when none. */
  checkpoint: AllCheckpoint | null;
}

export interface AppendResult {
  /** New version (number of events) of every stream of the call. */
  streams: Record<string, number>;
  /**
   * A checkpoint at (covering) the last event of the call: once a projection's checkpoint `p`
   * satisfies `store.isAtOrAfter(p, checkpoint)`, the projection has applied every event of the call.
   */
  checkpoint: AllCheckpoint;
}

export interface ReadAllOptions {
  /** Only events of streams whose id starts with one of these prefixes (e.g. `['tail-']`). */
  streamPrefixes?: string[];
}

export interface EventStore {
  /**
   * Appends to several streams. Atomic (all or nothing) where the adapter says `atomicMultiStream`.
   * Throws {@link WrongExpectedVersionError} on a version conflict.
   * Idempotent on eventId: re-appending events whose ids are already stored in the same stream at the
   * same place is a no-op success (returns the stored versions), so a retried command after a crash
   * does not duplicate. An id already used by a different event (other stream or other place) throws
   * {@link DuplicateEventIdError} (where the adapter can detect it).
   */
  append(writes: StreamWrite[]): Promise<AppendResult>;
  /** Events of one stream with version > fromVersion (exclusive, default 0), in version order. */
  readStream(streamId: string, fromVersion?: number): Promise<StoredEvent[]>;
  /** Many streams in one round trip (used by bulk commands). Missing streams map to []. */
  readStreams(streamIds: string[]): Promise<Map<string, StoredEvent[]>>;
  /**
   * Global log in commit order, never skipping an event of a slower concurrent transaction.
   * Visibility may lag slightly behind commits (see the adapter docs); it never reorders.
   */
  readAll(after: AllCheckpoint | null, limit: number, opts?: ReadAllOptions): Promise<ReadAllResult>;
  /** true if `a` is at or after `b` in the global order (`null` = before the first event). */
  isAtOrAfter(a: AllCheckpoint | null, b: AllCheckpoint): boolean;
  /**
   * The checkpoint at the newest event of the global log (`null` when it is empty). A stored
   * checkpoint beyond it means the store was reset or replaced: readers check at start.
   */
  headCheckpoint(): Promise<AllCheckpoint | null>;
  readonly atomicMultiStream: boolean;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    /** Current number of events in the stream (0 when it does not exist; -1 when unknown). */
    readonly actual: number,
  ) {
    super(`Wrong expected version for stream '${streamId}': expected ${expected}, actual ${actual}`);
    this.name = 'WrongExpectedVersionError';
  }
}

/** An event id of the call is already stored for a different event (another stream or another place). */
export class DuplicateEventIdError extends Error {
  constructor(
    readonly eventId: string,
    readonly streamId: string,
    detail: string,
  ) {
    super(`Event id ${eventId} (stream '${streamId}') is already used by a different event: ${detail}`);
    this.name = 'DuplicateEventIdError';
  }
}

/**
 * The store did not answer in time, is unreachable, or is not the node that can serve the call
 * (a follower). Transient: the caller may retry (a write retried with the same event ids is
 * idempotent, so a write that timed out after it was stored is not stored twice).
 */
export class EventStoreUnavailableError extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'EventStoreUnavailableError';
  }
}

/** The store refused the credentials (or their absence) for a call: a setup error, not transient. */
export class EventStoreAccessDeniedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventStoreAccessDeniedError';
  }
}

/**
 * The store rejected the call itself (a read from a position that is no event's, a write over its
 * size limits, a request it cannot parse): permanent, the same call fails the same way again.
 */
export class EventStoreRejectedError extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'EventStoreRejectedError';
  }
}

/** The stream was deleted (tombstoned) by an operator: it can be neither read nor written. */
export class StreamDeletedError extends Error {
  constructor(readonly streamId: string) {
    super(`Stream '${streamId}' was deleted from the event store`);
    this.name = 'StreamDeletedError';
  }
}

/** The call itself is malformed (duplicate stream in one call, invalid uuid, bad expected version...). */
export class InvalidAppendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAppendError';
  }
}

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Shared validation of an append call; throws {@link InvalidAppendError}. */
export function validateWrites(writes: StreamWrite[]): void {
  if (!Array.isArray(writes)) throw new InvalidAppendError('writes must be an array');
  const streams = new Set<string>();
  const ids = new Set<string>();
  for (const w of writes) {
    if (typeof w.streamId !== 'string' || w.streamId.length === 0) throw new InvalidAppendError('streamId must be a non-empty string');
    if (streams.has(w.streamId)) throw new InvalidAppendError(`stream '${w.streamId}' appears twice in one append call`);
    streams.add(w.streamId);
    const ev = w.expectedVersion;
    if (ev !== 'any' && !(Number.isInteger(ev) && ev >= 0)) {
      throw new InvalidAppendError(`invalid expectedVersion ${String(ev)} for stream '${w.streamId}'`);
    }
    if (!Array.isArray(w.events)) throw new InvalidAppendError(`events of stream '${w.streamId}' must be an array`);
    for (const e of w.events) {
      if (typeof e.eventId !== 'string' || !UUID_RE.test(e.eventId)) throw new InvalidAppendError(`eventId '${e.eventId}' is not a uuid`);
      const id = e.eventId.toLowerCase();
      if (ids.has(id)) throw new InvalidAppendError(`eventId ${id} appears twice in one append call`);
      ids.add(id);
      if (typeof e.type !== 'string' || e.type.length === 0) throw new InvalidAppendError(`event ${id} has no type`);
      if (e.data === null || typeof e.data !== 'object' || Array.isArray(e.data)) throw new InvalidAppendError(`event ${id}: data must be an object`);
      if (e.metadata !== undefined && (e.metadata === null || typeof e.metadata !== 'object' || Array.isArray(e.metadata))) {
        throw new InvalidAppendError(`event ${id}: metadata must be an object`);
      }
    }
  }
}
