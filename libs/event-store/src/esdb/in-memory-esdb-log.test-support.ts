/**
 * Test support: the log of the in-memory EventStoreDB stand-in (`InMemoryEsdbServer`) and the
 * write decisions both its append paths share. Behaviours taken from the server's source
 * (kurrent-io/KurrentDB at tag v24.10.0 unless said) are cited where they are reproduced.
 */

export interface Recorded {
  streamId: string;
  revision: number;
  id: string;
  type: string;
  data: Uint8Array;
  metadata: Uint8Array;
  position: bigint;
  /** Server clock at write time, in ms since the epoch. */
  created: number;
}

export interface Proposed {
  id: string;
  type: string;
  data: Uint8Array;
  metadata: Uint8Array;
}

/** What an append expects of its stream: a revision (0-based), or one of the server's special values. */
export type Expected = { revision: number } | 'any' | 'no-stream' | 'stream-exists';

export type AppendOutcome =
  /** `revision` of the stream's last event (-1: none); `position` of the write's last event (`null`: no event written). */
  | { kind: 'success'; revision: number; position: bigint | null }
  | { kind: 'wrong-expected-version'; current: number | null; expected: Expected };

/** The server's limits; EventStoreDB 24.10's defaults unless a spec asks otherwise. */
export interface LogLimits {
  /** `MaxAppendSize`: 1,048,576 bytes in 24.10 (ClusterVNodeOptions.cs:157); a chunk (256 MiB) in 25.1. */
  maxAppendSize: number;
  /** `MaxAppendEventSize` (24.10.14+, 25.1): `int.MaxValue` in 24.10.14 (ClusterVNodeOptions.cs:161), 16 MiB in 25.1. */
  maxAppendEventSize: number;
}

export const ESDB_24_10_LIMITS: LogLimits = { maxAppendSize: 1_048_576, maxAppendEventSize: 2 ** 31 - 1 };

/**
 * An event's size as the append-size limit counts it. 24.10's `Event.SizeOnDisk` reads
 * `data?.Length ?? 0 + metadata?.Length ?? 0 + eventType.Length * 2` (Event.cs:23-24): by C#'s
 * precedence that is the data's length alone; 25.1 adds metadata and twice the type's length.
 */
export function sizeOnDisk(e: Proposed): number {
  return e.data.length;
}

/** Bytes a record takes in the log (header, names, payload): positions advance by it, so they are not evenly spaced. */
function recordSize(streamId: string, e: Proposed): bigint {
  return BigInt(88 + 2 * (streamId.length + e.type.length) + e.data.length + e.metadata.length);
}

export class InMemoryEsdbLog {
  readonly events: Recorded[] = [];
  private readonly streams = new Map<string, Recorded[]>();
  private readonly byPosition = new Set<bigint>();
  /** Position after the last record: where the next one goes, and the end of `$all`. */
  head = 0n;

  constructor(private readonly clock: () => number) {}

  stream(streamId: string): Recorded[] | undefined {
    return this.streams.get(streamId);
  }

  /** Whether a read of `$all` may start at `position`: the start, an event's position, or at/after the end. */
  isReadablePosition(position: bigint): boolean {
    return position === 0n || position >= this.head || this.byPosition.has(position);
  }

  store(streamId: string, e: Proposed): Recorded {
    const stream = this.streams.get(streamId) ?? [];
    this.streams.set(streamId, stream);
    const recorded: Recorded = { ...e, streamId, revision: stream.length, position: this.head, created: this.clock() };
    this.head += recordSize(streamId, e);
    stream.push(recorded);
    this.events.push(recorded);
    this.byPosition.add(recorded.position);
    return recorded;
  }

  /**
   * An append as the server decides it: a retry of events already stored at the expected place
   * (with `any`: anywhere) answers the original's result; otherwise the expectation is checked
   * (`stream-exists` needs the stream to have an event) and the events are stored.
   */
  append(streamId: string, expected: Expected, proposed: Proposed[]): AppendOutcome {
    const stream = this.streams.get(streamId) ?? [];
    const current = stream.length - 1; // -1: no stream
    const ids = proposed.map((m) => m.id);
    const from = expected === 'any' ? stream.findIndex((e) => e.id === ids[0]) : typeof expected === 'object' ? expected.revision + 1 : expected === 'no-stream' ? 0 : -1;
    const storedThere = from >= 0 ? stream.slice(from, from + ids.length) : [];
    if (ids.length > 0 && storedThere.length === ids.length && storedThere.every((e, i) => e.id === ids[i])) {
      const original = storedThere[storedThere.length - 1];
      return { kind: 'success', revision: original.revision, position: original.position };
    }
    const met =
      expected === 'any' ||
      (expected === 'no-stream' && current === -1) ||
      (expected === 'stream-exists' && current >= 0) ||
      (typeof expected === 'object' && expected.revision === current);
    if (!met) return { kind: 'wrong-expected-version', current: current >= 0 ? current : null, expected };
    let last: Recorded | undefined;
    for (const m of proposed) last = this.store(streamId, m);
    return { kind: 'success', revision: last ? last.revision : current, position: last ? last.position : null };
  }

  reset(): void {
    this.events.length = 0;
    this.streams.clear();
    this.byPosition.clear();
    this.head = 0n;
  }
}
