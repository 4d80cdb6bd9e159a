import type { Pool, PoolClient } from 'pg';
import { isPairAtOrAfter, ORIGIN_VALUE } from '../checkpoint';
import {
  AllCheckpoint,
  AppendResult,
  DuplicateEventIdError,
  EventStore,
  ReadAllOptions,
  ReadAllResult,
  StoredEvent,
  StreamWrite,
  validateWrites,
  WrongExpectedVersionError,
} from '../event-store.port';
import { appendAttempt, ConcurrentStreamWrite, NEW_STREAMS } from './append-attempt';
import { AppendedEvents } from './appended-events';
import { isDatabaseError } from './database-errors';
import { eventTables, type EventTables } from './event-tables';
import { GlobalLog } from './global-log';
import { RetriedAppend } from './retried-append';
import { readStream, readStreams } from './stream-reads';

export interface PostgresEventStoreOptions {
  /**
   * Schema holding the tables (`es_events`, `es_streams`, made by `EVENT_STORE_MIGRATIONS`).
   * Default: unqualified, i.e. the connection's `search_path`.
   */
  schema?: string;
  /**
   * Attempts of one append when it hits a transient conflict (deadlock, a stream created by a
   * concurrent transaction between our lock and our insert). Default 5.
   */
  maxAttempts?: number;
  /**
   * Events this adapter appended that it keeps in memory until a `readAll` returns them, so the
   * read need not fetch their content (see `AppendedEvents`). 0 turns this off. Default 20,000.
   */
  keptAppendedEvents?: number;
}

/**
 * PostgreSQL adapter (default).
 *
 * - One transaction per `append`, whatever the number of streams: atomic across streams
 *   (`RetriedAppend`, one `appendAttempt` per try; a retried command is recognised by `findStoredWrites`).
 * - Optimistic concurrency on `es_streams` with stream rows locked in a deterministic order.
 * - All events of a call are written by one multi-row `INSERT ... SELECT FROM unnest(...)`.
 * - Global order = `(tx, position)` where `tx` is the writing transaction's id (`xid8`); `readAll`
 *   only returns rows of transactions older than the oldest transaction still running
 *   (`pg_snapshot_xmin(pg_current_snapshot())`), so a slow transaction can never be skipped (`GlobalLog`).
 * - `StoredEvent.position` and checkpoint values are `"<tx>:<position>"` (decimal integers).
 *
 * The pool is owned by the caller: `close()` does not end it.
 */
export class PostgresEventStore implements EventStore {
  readonly atomicMultiStream = true;

  private readonly tables: EventTables;
  private readonly retried: RetriedAppend;
  private readonly appended: AppendedEvents;
  private readonly log: GlobalLog;

  constructor(
    private readonly pool: Pool,
    options: PostgresEventStoreOptions = {},
  ) {
    this.tables = eventTables(options.schema);
    this.appended = new AppendedEvents(options.keptAppendedEvents ?? 20_000);
    this.retried = new RetriedAppend(this.tables, this.appended, Math.max(1, options.maxAttempts ?? 5));
    this.log = new GlobalLog(pool, this.tables, this.appended);
  }

  async append(writes: StreamWrite[]): Promise<AppendResult> {
    validateWrites(writes);
    if (writes.length === 0) return { streams: {}, checkpoint: { value: ORIGIN_VALUE } };
    const client = await this.pool.connect();
    let destroy = false;
    try {
      return await this.retried.run(client, writes);
    } catch (err) {
      destroy = !(err instanceof WrongExpectedVersionError || err instanceof DuplicateEventIdError || isDatabaseError(err));
      throw err;
    } finally {
      client.release(destroy ? true : undefined);
    }
  }

  /**
   * Appends as one more part of a transaction the caller has opened and will end (e.g. to write
   * events together with other rows): streams expected new are checked by their events' insert
   * alone (no lookup, and no `streams` row: three statements fewer). Any failure leaves the
   * caller's transaction aborted: the caller rolls back. A version conflict, or a stream expected
   * new that exists, is a `WrongExpectedVersionError` (actual version -1 when a concurrent writer
   * caused it); there is no idempotency check (for callers whose events are new). The returned
   * checkpoint becomes reachable by `readAll` once the caller commits.
   */
  async appendAsPartOf(client: PoolClient, writes: StreamWrite[]): Promise<AppendResult> {
    validateWrites(writes);
    try {
      return await appendAttempt(client, this.tables, this.appended, writes, NEW_STREAMS);
    } catch (err) {
      if (err instanceof ConcurrentStreamWrite) {
        const expected = writes.find((w) => w.streamId === err.streamId)?.expectedVersion ?? 'any';
        throw new WrongExpectedVersionError(err.streamId, expected, -1);
      }
      throw err;
    }
  }

  readStream(streamId: string, fromVersion = 0): Promise<StoredEvent[]> {
    return readStream(this.pool, this.tables, streamId, fromVersion);
  }

  readStreams(streamIds: string[]): Promise<Map<string, StoredEvent[]>> {
    return readStreams(this.pool, this.tables, streamIds);
  }

  readAll(after: AllCheckpoint | null, limit: number, opts: ReadAllOptions = {}): Promise<ReadAllResult> {
    return this.log.readAll(after, limit, opts);
  }

  isAtOrAfter(a: AllCheckpoint | null, b: AllCheckpoint): boolean {
    return isPairAtOrAfter(a, b);
  }

  headCheckpoint(): Promise<AllCheckpoint | null> {
    return this.log.headCheckpoint();
  }

  async ping(): Promise<void> {
    await this.pool.query('select 1');
  }

  /** The pool belongs to the caller; nothing to release here. */
  async close(): Promise<void> {
    /* caller-owned pool */
  }
}
