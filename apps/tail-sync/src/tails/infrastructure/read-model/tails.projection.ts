import { advisoryLockKey, PollingLoop } from '@tailsync/service-kit';
import type { Pool, PoolClient } from 'pg';
import { escapeLiteral } from 'pg';
import type { AllCheckpoint, EventStore, StoredEvent } from '@tailsync/event-store';
import type { TailState } from '../../domain/tail.state';
import { RecentTailEvents, TAIL_STREAMS } from '../recent-tail-events';
import { CheckpointWaiters } from './checkpoint-waiters';
import { eventsByTail, foldTailRows, type MappingRow } from './tail-rows.fold';
import { Placeholders } from './placeholders';
import { fromDb, readColumns, TAIL_ROW_COLUMNS, tailColumns, type DbTailRow } from './tail-rows.columns';
import {
  consoleLogger,
  inGlobalOrder,
  readModelTables,
  storeCheckpointSql,
  type ReadModelTables,
  type ReadSideLogger,
} from './read-model.tables';

// The statements' column lists, made once from the table of columns (tail-rows.columns.ts).
const ROW_COLUMNS = TAIL_ROW_COLUMNS.map((c) => c.name).join(', ');
const REPLACED_COLUMNS = TAIL_ROW_COLUMNS.filter((c) => c.name !== 'tail_id')
  .map((c) => `${c.name} = excluded.${c.name}`)
  .join(', ');
const READ_COLUMNS = readColumns();

export interface TailsProjectionOptions {
  /** Name of the projection: its checkpoint row and its lock. Default `tails`. */
  name?: string;
  /** Events read (and applied in one transaction) per batch. Default 2000. */
  batchSize?: number;
  /** Schema of the read-model tables. Default: the connection's `search_path`. */
  schema?: string;
  /** Period of the background loop (`start()`). Default 200 ms. */
  pollIntervalMs?: number;
  /** Pause before catching up again while a waiter's event is not visible yet. Default 2 ms. */
  retryDelayMs?: number;
  /** Where catch-ups read the tail events: shared with the relay in the app (one read per event). */
  recentEvents?: RecentTailEvents;
  logger?: ReadSideLogger;
}

/** `waitFor` gave up: the projection did not reach the checkpoint in time. */
export class ProjectionTimeoutError extends Error {
  constructor(
    readonly projection: string,
    readonly target: AllCheckpoint,
    readonly reached: AllCheckpoint | null,
    readonly timeoutMs: number,
    readonly lastError?: unknown,
  ) {
    super(
      `Projection '${projection}' did not reach checkpoint ${target.value} within ${timeoutMs} ms (at ${reached?.value ?? 'origin'})` +
        (lastError ? `; last error: ${(lastError as Error).message ?? String(lastError)}` : ''),
    );
    this.name = 'ProjectionTimeoutError';
  }
}

/** `waitFor` was pending when the projection was stopped. */
export class ProjectionStoppedError extends Error {
  constructor(projection: string) {
    super(`Projection '${projection}' was stopped`);
    this.name = 'ProjectionStoppedError';
  }
}

/** What a catch-up did (for logs, metrics and tests). */
export interface CatchUpStats {
  batches: number;
  events: number;
  tailEvents: number;
  checkpoint: AllCheckpoint | null;
}

/** The stats of a run that has applied nothing (yet), at `checkpoint`. */
const noStats = (checkpoint: AllCheckpoint | null): CatchUpStats => ({ batches: 0, events: 0, tailEvents: 0, checkpoint });

const noop = () => undefined;

/**
 * Projects the tail streams of the event store into `rm_tails` and `rm_tail_mappings`.
 *
 * - One transaction per batch: a transaction-level advisory lock (so any number of tail-sync
 *   copies never apply one batch twice), the stored checkpoint read after the lock, the events,
 *   set-based writes (one multi-row upsert per table) and the new checkpoint, then commit.
 * - Idempotent: a tail row only moves forward (version guard), mappings are inserted
 *   `on conflict do nothing`.
 * - `waitFor(checkpoint)` lets a command answer once its effect is readable; concurrent waiters
 *   share catch-ups (single flight, at most one more run queued).
 *
 * Framework-free: construct with a pool (at least 2 connections: the event store reads on
 * another connection while the batch transaction is open) and the event store.
 */
export class TailsProjection {
  readonly name: string;
  private readonly tables: ReadModelTables;
  private readonly batchSize: number;
  private readonly loop: PollingLoop;
  private readonly retryDelayMs: number;
  private readonly logger: ReadSideLogger;
  private readonly lockSql: string;
  private readonly recentEvents: RecentTailEvents;

  /** The newest checkpoint this process knows the projection has reached. */
  private known: AllCheckpoint | null = null;
  private readonly waiters = new CheckpointWaiters((target) => this.reached(target));
  private inFlight: Promise<CatchUpStats> | null = null;
  private queued: Promise<CatchUpStats> | null = null;
  private queuedForWaitersOnly = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private lastError: unknown = undefined;
  private runCount = 0;

  constructor(
    private readonly pool: Pool,
    private readonly eventStore: EventStore,
    opts: TailsProjectionOptions = {},
  ) {
    this.name = opts.name ?? 'tails';
    this.tables = readModelTables(opts.schema);
    this.batchSize = Math.max(1, opts.batchSize ?? 2000);
    this.retryDelayMs = Math.max(0, opts.retryDelayMs ?? 2);
    this.logger = opts.logger ?? consoleLogger;
    this.recentEvents = opts.recentEvents ?? new RecentTailEvents(eventStore);
    const pollIntervalMs = Math.max(1, opts.pollIntervalMs ?? 200);
    this.loop = new PollingLoop(
      async () => {
        await this.schedule();
        return 'caught-up';
      },
      {
        idleMs: pollIntervalMs,
        errorBackoffMs: pollIntervalMs,
        onError: (err) => this.logger.error(`Projection '${this.name}' catch-up failed: ${(err as Error).message}`, (err as Error).stack),
      },
    );
    // begin + lock + checkpoint read in one round trip (simple query protocol). The commit does not
    // wait for its WAL flush: read models and their checkpoint are derived, one transaction, and a
    // commit lost in a database crash is applied again from the event store. Waiting for the
    // disk (up to 150 ms on a busy virtual disk) was the tail of every command's answer.
    this.lockSql =
      `begin; set local synchronous_commit = off; ` +
      `select pg_advisory_xact_lock(${advisoryLockKey(`tailsync.projection:${this.tables.lockScope}:${this.name}`)}); ` +
      `select checkpoint from ${this.tables.checkpoints} where name = ${escapeLiteral(this.name)}`;
  }

  /** The checkpoint this process last saw the projection at (no I/O). */
  get checkpoint(): AllCheckpoint | null {
    return this.known;
  }

  /** Catch-up runs started by this instance (each runs one or more batches). */
  get runs(): number {
    return this.runCount;
  }

  /** Waiters currently pending. */
  get pendingWaiters(): number {
    return this.waiters.size;
  }

  /** The stored checkpoint (one query). */
  async storedCheckpoint(): Promise<AllCheckpoint | null> {
    const { rows } = await this.pool.query<{ checkpoint: string }>(
      `select checkpoint from ${this.tables.checkpoints} where name = $1`,
      [this.name],
    );
    return rows[0] ? { value: rows[0].checkpoint } : null;
  }

  /**
   * Applies every event visible in the store after the stored checkpoint, batch by batch, and
   * returns the checkpoint reached. Runs are single-flight within the process: a call while a
   * run is in flight waits for the next run (started after it).
   */
  async catchUp(): Promise<AllCheckpoint | null> {
    return (await this.schedule()).checkpoint;
  }

  /** Like `catchUp`, with what the run did. */
  catchUpWithStats(): Promise<CatchUpStats> {
    return this.schedule();
  }

  /**
   * Resolves once the projection has applied everything up to `checkpoint` (immediately for
   * `null`), catching up as needed; rejects with {@link ProjectionTimeoutError} after `timeoutMs`.
   * Many concurrent waiters share the same catch-up runs.
   */
  waitFor(checkpoint: AllCheckpoint | null, timeoutMs = 10_000): Promise<void> {
    if (checkpoint === null || this.reached(checkpoint)) return Promise.resolve();
    const waiting = this.waiters.add(checkpoint, timeoutMs, () => new ProjectionTimeoutError(this.name, checkpoint, this.known, timeoutMs, this.lastError));
    this.schedule(true).catch(noop);
    return waiting;
  }

  /** Starts the background loop catching up every `pollIntervalMs` (events of other copies). */
  start(): void {
    this.loop.start();
  }

  /** Stops the background loop, waits for a running catch-up, rejects pending waiters. */
  async stop(): Promise<void> {
    const looping = this.loop.stop();
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    this.waiters.rejectAll(new ProjectionStoppedError(this.name));
    await Promise.allSettled([looping, this.inFlight, this.queued].filter(Boolean));
  }

  /**
   * Empties the read model and its checkpoint and replays every event, in ONE transaction under
   * the projection's lock: readers keep seeing the old rows until it commits, and other copies'
   * catch-ups wait for it. Then catches up with what was written meanwhile.
   */
  async rebuild(): Promise<CatchUpStats> {
    const run = async (): Promise<CatchUpStats> => {
      const stats = noStats(null);
      const client = await this.pool.connect();
      let broken = false;
      try {
        await client.query(this.lockSql);
        await client.query(
          `delete from ${this.tables.mappings}; delete from ${this.tables.tails}; ` +
            `delete from ${this.tables.checkpoints} where name = ${escapeLiteral(this.name)}`,
        );
        let cp: AllCheckpoint | null = null;
        for (;;) {
          const read = await this.eventStore.readAll(cp, this.batchSize, TAIL_STREAMS);
          const { events, checkpoint } = inGlobalOrder(this.eventStore, read, this.batchSize);
          if (events.length === 0) break;
          stats.tailEvents += await this.apply(client, events, checkpoint as AllCheckpoint);
          stats.batches++;
          stats.events += events.length;
          cp = checkpoint;
          if (events.length < this.batchSize) break;
        }
        await client.query('commit');
        this.known = cp;
        stats.checkpoint = cp;
        return stats;
      } catch (err) {
        broken = true;
        await client.query('rollback').catch(noop);
        throw err;
      } finally {
        client.release(broken ? true : undefined);
      }
    };
    // Exclusive with this process's catch-ups (other processes wait on the advisory lock).
    while (this.inFlight || this.queued) await Promise.allSettled([this.inFlight, this.queued]);
    const rebuilt: Promise<CatchUpStats> = run().finally(() => {
      if (this.inFlight === rebuilt) this.inFlight = null;
    });
    this.inFlight = rebuilt;
    const stats = await rebuilt;
    const after = await this.schedule();
    return {
      batches: stats.batches + after.batches,
      events: stats.events + after.events,
      tailEvents: stats.tailEvents + after.tailEvents,
      checkpoint: after.checkpoint ?? stats.checkpoint,
    };
  }

  // --- single flight ----------------------------------------------------------------------------

  private reached(target: AllCheckpoint): boolean {
    return this.eventStore.isAtOrAfter(this.known, target);
  }

  /**
   * A run that starts after this call: a new one when idle, else the one queued behind the run in
   * flight. `forWaiters`: only for `waitFor`'s waiters. When every caller of the queued run was,
   * and the run in flight reached all their checkpoints (its read came after their appends), the
   * queued run is not started: it would read nothing (a third of the runs under single PUTs, three
   * round trips each), and waiters arriving meanwhile would have waited for it.
   */
  private schedule(forWaiters = false): Promise<CatchUpStats> {
    if (this.queued) {
      if (!forWaiters) this.queuedForWaitersOnly = false;
      return this.queued;
    }
    if (!this.inFlight) return this.launch();
    this.queuedForWaitersOnly = forWaiters;
    const queued = this.inFlight.then(noop, noop).then(() => {
      this.queued = null;
      if (this.queuedForWaitersOnly && !this.waiters.anyAhead()) return noStats(this.known);
      return this.launch();
    });
    this.queued = queued;
    return queued;
  }

  private launch(): Promise<CatchUpStats> {
    this.runCount++;
    const run = this.drain().finally(() => {
      if (this.inFlight === run) this.inFlight = null;
      this.afterRun();
    });
    this.inFlight = run;
    return run;
  }

  /** Waiters whose events were not visible yet: try again shortly (bounded by their timeouts). */
  private afterRun(): void {
    this.waiters.settle();
    if (this.waiters.size === 0 || this.queued || this.retryTimer) return;
    const delay = this.lastError ? Math.max(50, this.retryDelayMs) : this.retryDelayMs;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.waiters.size > 0) this.schedule(true).catch(noop);
    }, delay);
  }

  private advance(cp: AllCheckpoint | null): void {
    if (cp === null) return;
    if (this.known === null || this.eventStore.isAtOrAfter(cp, this.known)) this.known = cp;
    this.waiters.settle();
  }

  // --- batches ----------------------------------------------------------------------------------

  /**
   * Batches until the store has nothing more.
   *
   * Reads are filtered to the tail streams (a third of the events of a create). A filtered read
   * only advances the checkpoint to the last tail event, though, so a command whose append ends
   * with a reservation event (a renumber ends with `TailNumberReleased`) would not be reached by
   * `waitFor` until the next tail event. So when the filtered reads are done and a waiter is still
   * short of its checkpoint, the run reads on unfiltered (non-tail events are skipped by `apply`),
   * which carries the checkpoint past those events.
   */
  private async drain(): Promise<CatchUpStats> {
    const stats = noStats(this.known);
    const client = await this.pool.connect();
    let broken = false;
    let unfiltered = false;
    try {
      for (;;) {
        const results = (await client.query(this.lockSql)) as unknown as { rows: { checkpoint: string }[] }[];
        const stored = results[results.length - 1].rows[0];
        const from: AllCheckpoint | null = stored ? { value: stored.checkpoint } : null;
        this.advance(from);
        stats.checkpoint = from;
        const read = unfiltered ? await this.eventStore.readAll(from, this.batchSize) : await this.recentEvents.readAfter(from, this.batchSize);
        const { events, checkpoint } = inGlobalOrder(this.eventStore, read, this.batchSize);
        if (events.length > 0) {
          stats.tailEvents += await this.apply(client, events, checkpoint as AllCheckpoint);
          await client.query('commit');
          stats.batches++;
          stats.events += events.length;
          stats.checkpoint = checkpoint;
          this.advance(checkpoint);
        } else {
          // No tail event, but the store may have scanned past other streams' events: kept, so
          // that neither the next run nor a restart scans them again.
          if (checkpoint && !this.eventStore.isAtOrAfter(from, checkpoint)) {
            await client.query(storeCheckpointSql(this.tables), [this.name, checkpoint.value]);
            stats.checkpoint = checkpoint;
            this.advance(checkpoint);
          }
          await client.query('commit');
        }
        if (events.length === this.batchSize) {
          unfiltered = false;
          continue;
        }
        if (unfiltered || !this.waiters.anyAhead()) break;
        unfiltered = true;
      }
      this.lastError = undefined;
      return stats;
    } catch (err) {
      broken = true;
      this.lastError = err;
      await client.query('rollback').catch(noop);
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  /**
   * Applies a batch (any streams; only `tail-<id>` streams matter) and stores `checkpoint`, in the
   * caller's open transaction. At most 2 statements whatever the batch size. Returns the number of
   * tail events applied.
   */
  private async apply(client: PoolClient, events: StoredEvent[], checkpoint: AllCheckpoint): Promise<number> {
    const byTail = eventsByTail(events);

    // The current rows of the touched tails (one primary-key lookup), so the version guard is exact.
    // A tail whose first event is in the batch has its whole history here: nothing to look up.
    const current = new Map<number, TailState>();
    const existing = [...byTail].filter(([, evs]) => evs.every((e) => e.version > 1));
    if (existing.length > 0) {
      // The key is (domain, tail_id). Every tail event names its tail's domain; an event of a type
      // this version does not know might not, hence the first one that does.
      const domains = existing.map(([, evs]) => String(evs.find((e) => typeof e.data.domain === 'string')?.data.domain ?? ''));
      const { rows } = await client.query<DbTailRow>(
        `select ${READ_COLUMNS} from unnest($1::text[], $2::bigint[]) as k(k_domain, k_tail_id)
           join ${this.tables.tails} t on t.domain = k.k_domain and t.tail_id = k.k_tail_id`,
        [domains, existing.map(([tailId]) => tailId)],
      );
      for (const r of rows) current.set(Number(r.tail_id), fromDb(r));
    }

    const { changed, mappings, folded } = foldTailRows(byTail, current, (message) => this.logger.warn(`Projection '${this.name}': ${message}`));

    // Events after the stored checkpoint have never been applied (the rows and the checkpoint move
    // in one transaction), so a tail created in the batch has no row yet and its mappings none
    // either: plain inserts, a third cheaper than upserts. Rows written some other way (a
    // checkpoint deleted by hand) make them fail on a key; the batch is then written with upserts.
    const created = changed.filter((s) => !current.has(s.tailId) && byTail.get(s.tailId)![0].version === 1);
    const isCreated = new Set(created);
    const others = created.length === 0 ? changed : changed.filter((s) => !isCreated.has(s));
    let written: number[];
    if (created.length === 0 && mappings.length === 0) {
      written = await this.writeRows(client, { created: [], others, mappings, checkpoint, plainInserts: false });
    } else {
      await client.query('savepoint projection_batch');
      try {
        written = await this.writeRows(client, { created, others, mappings, checkpoint, plainInserts: true });
      } catch (err) {
        if ((err as { code?: unknown }).code !== '23505') throw err;
        this.logger.warn(`Projection '${this.name}': rows of events after its checkpoint already exist; applying the batch with upserts`);
        await client.query('rollback to savepoint projection_batch');
        written = await this.writeRows(client, { created: [], others: changed, mappings, checkpoint, plainInserts: false });
      }
    }
    return written.reduce((sum, tailId) => sum + (folded.get(tailId) ?? 0), 0);
  }

  /**
   * One statement: new tails inserted, the others upserted behind the version guard, the
   * mappings, the checkpoint. Returns the ids of the tail rows written: every inserted one (an
   * insert that cannot write a row fails), and the upserted ones the guard let through.
   */
  private async writeRows(
    client: PoolClient,
    batch: { created: TailState[]; others: TailState[]; mappings: MappingRow[]; checkpoint: AllCheckpoint; plainInserts: boolean },
  ): Promise<number[]> {
    const t = this.tables;
    const values = new Placeholders();
    const unnested = (states: TailState[]) => `unnest(${tailColumns(states).map((column, i) => values.add(column, `${TAIL_ROW_COLUMNS[i].type}[]`)).join(', ')})`;
    const mappings = (of: (m: MappingRow) => unknown, type: string) => values.add(batch.mappings.map(of), type);
    const { rows } = await client.query<{ upserted: string[] | null }>(
      `with ins as (
         insert into ${t.tails} (${ROW_COLUMNS}) select * from ${unnested(batch.created)}
       ), up as (
         insert into ${t.tails} (${ROW_COLUMNS}) select * from ${unnested(batch.others)}
         on conflict (domain, tail_id) do update set ${REPLACED_COLUMNS}
         where ${t.tails}.version < excluded.version
         returning tail_id
       ), maps as (
         insert into ${t.mappings} (domain, source, mapped_id, tail_id, added_version)
         select * from unnest(${mappings((m) => m.domain, 'text[]')}, ${mappings((m) => m.source, 'text[]')}, ${mappings((m) => m.mappedId, 'text[]')},
                              ${mappings((m) => m.tailId, 'bigint[]')}, ${mappings((m) => m.addedVersion, 'int[]')})
         ${batch.plainInserts ? '' : 'on conflict do nothing'}
         returning 1
       ), cp as (
         insert into ${t.checkpoints} (name, checkpoint, updated_at) values (${values.add(this.name)}, ${values.add(batch.checkpoint.value)}, now())
         on conflict (name) do update set checkpoint = excluded.checkpoint, updated_at = excluded.updated_at
         returning 1
       )
       select array(select tail_id from up)::text[] as upserted, (select count(*) from maps)::int as mappings, (select count(*) from cp)::int as cp`,
      values.list,
    );
    return [...batch.created.map((s) => s.tailId), ...(rows[0].upserted ?? []).map(Number)];
  }
}
