import { Batcher } from '@tailsync/service-kit';
import {
  EventStoreUnavailableError,
  newEventId,
  WrongExpectedVersionError,
  type AllCheckpoint,
  type EventStore,
  type NewEvent,
  type StoredEvent,
  type StreamWrite,
} from '@tailsync/event-store';
import { createOrMap } from '../domain/create-or-map';
import {
  claimMayBeInFlight,
  evolveReservation,
  freeReservation,
  mappedIdClaimed,
  tailNumberClaimed,
  tailNumberReleased,
  type Reservation,
  type ReservationEvent,
} from '../domain/reservation.events';
import { mappedIdStreamId, tailNumberStreamId, tailStreamId } from '../domain/stream-ids';
import type { TailCommand } from '../domain/tail.commands';
import { decide, evolve } from '../domain/tail.decider';
import { TailNotFound, TailNumberRequired, isTailDomainError } from '../domain/tail.errors';
import { toTailEvent, type TailEvent } from '../domain/tail.events';
import { normalizeTailProperties, type TailPropertiesInput } from '../domain/tail-properties';
import { tailNumberKey, trimTailNumber } from '../domain/tail-number';
import { hasMapping, type TailState } from '../domain/tail.state';
import { ReservationInFlight, type ReservationChange, type ReservationStore } from './reservation-store';
import type { TailIdAllocator } from './tail-id-allocator';

/** Who is acting: the calling service account's domain and clientId (the mapping source). */
export interface TailWriterContext {
  domain: string;
  /** clientId of the calling service account: the source of its Mapped IDs and the actor. */
  source: string;
}

/** One tail to create or map (shape-validated by the gateway). */
export interface TailInput extends TailPropertiesInput {
  /** The caller's Mapped ID (the API's `tailId` field). */
  mappedId: string;
  tailNumber: string;
}

export type CreateOrMapResult =
  | { outcome: 'created' | 'mapped' | 'no-action'; tailId: number }
  | { outcome: 'invalid'; fieldErrors: Record<string, string[]> };

export interface CreateOrMapManyResult {
  /** One per input, in input order. */
  results: CreateOrMapResult[];
  /**
   * Where the effect of the call is readable: the append's checkpoint, or (nothing appended)
   * the position of the newest event of the tails the results refer to; `null` when none.
   */
  checkpoint: AllCheckpoint | null;
}

export interface TailCommandResult {
  /** The tail after the command. */
  tail: TailState;
  /** The append's checkpoint, or the tail's newest event position when nothing changed. */
  checkpoint: AllCheckpoint | null;
}

export interface TailWriterOptions {
  /** Attempts per command when concurrent writers conflict (default 10). */
  maxAttempts?: number;
  /**
   * Base of the random pause before a retry, in ms (default 10): before retry n the pause is
   * uniform in [0, min(base * 2^(n-1), 50 * base)) ("full jitter" exponential backoff), which
   * spreads many writers contending for one stream.
   */
  retryJitterMs?: number;
  /**
   * Create-or-map calls that arrive while others are being written are merged into one batch of
   * at most this many tails (default 1000; a larger call still runs, alone).
   */
  maxBatchTails?: number;
  /** Create-or-map batches written at the same time (default 2). */
  maxConcurrentBatches?: number;
}

/** One create-or-map call: the caller and its tails. */
interface CreateOrMapRequest {
  ctx: TailWriterContext;
  inputs: TailInput[];
}

/** One tail of a (merged) batch, with its caller and the reservation streams it consults. */
interface BatchEntry {
  ctx: TailWriterContext;
  input: TailInput;
  tailNumber: string;
  mappedIdStream: string;
  tailNumberStream: string | null;
}

/** A stream as read: its version (0 = absent) and the position of its newest event. */
interface ReadStream {
  version: number;
  position: string | null;
}

interface LoadedTail extends ReadStream {
  state: TailState | null;
}

/** Result of deciding one entry of a batch. */
type Decided = { result: CreateOrMapResult; tailId?: number };

/**
 * What a batch has read and decided so far: the read streams plus the in-memory effect of the
 * entries already decided, and the events to append (with the versions they were read at).
 */
class Overlay {
  private readonly tails = new Map<number, TailState | null>();
  private readonly reservations = new Map<string, Reservation>();
  private readonly pending = new Map<string, StreamWrite>();
  private readonly changes = new Map<string, ReservationChange>();

  constructor(
    private readonly loadedTails: Map<number, LoadedTail>,
    private readonly loadedReservations: Map<string, Reservation>,
    /** false for a dry run: only the in-memory state is kept, nothing is recorded to append. */
    private readonly record: boolean,
    /** Whether a claim its tail does not hold may still be being written by another writer. */
    private readonly mayBeInFlight: (reservation: Reservation) => boolean,
  ) {}

  tail(tailId: number): TailState | null {
    if (this.tails.has(tailId)) return this.tails.get(tailId) ?? null;
    return this.loadedTails.get(tailId)?.state ?? null;
  }

  reservation(streamId: string): Reservation {
    return this.reservations.get(streamId) ?? this.loadedReservations.get(streamId) ?? freeReservation;
  }

  /**
   * The tail a reservation names, if that tail really holds it. A claim its tail does not hold can
   * only come from a store that is not atomic across streams: left by a writer that stopped (the
   * key is free), or still being completed by another writer ({@link ReservationInFlight}).
   */
  holder(streamId: string, holds: (tail: TailState) => boolean): TailState | null {
    const reservation = this.reservation(streamId);
    if (reservation.holder === null) return null;
    const tail = this.tail(reservation.holder);
    if (tail && holds(tail)) return tail;
    if (this.mayBeInFlight(reservation)) throw new ReservationInFlight(streamId, reservation.version);
    return null;
  }

  applyTail(tailId: number, events: TailEvent[], metadata: Record<string, unknown>): TailState | null {
    let state = this.tail(tailId);
    for (const e of events) state = evolve(state, e);
    this.tails.set(tailId, state);
    if (this.record && events.length > 0) {
      const expected = this.loadedTails.get(tailId)?.version ?? 0;
      this.push(
        tailStreamId(tailId),
        expected,
        events.map((e) => ({ eventId: e.data.eventId, type: e.type, data: { ...e.data }, metadata })),
      );
    }
    return state;
  }

  applyReservation(key: string, event: ReservationEvent, metadata: Record<string, unknown>): void {
    const after = evolveReservation(this.reservation(key), event);
    this.reservations.set(key, after);
    if (!this.record) return;
    const change = this.changes.get(key);
    if (change) {
      change.events.push(event);
      change.after = after;
    } else {
      const expectedVersion = this.loadedReservations.get(key)?.version ?? 0;
      this.changes.set(key, { key, expectedVersion, events: [event], after, metadata });
    }
  }

  /** Every touched tail stream once, with the version it was read at. */
  tailWrites(): StreamWrite[] {
    return [...this.pending.values()];
  }

  reservationChanges(): ReservationChange[] {
    return [...this.changes.values()];
  }

  private push(streamId: string, expectedVersion: number, events: NewEvent[]): void {
    const write = this.pending.get(streamId);
    if (write) {
      write.events.push(...events);
      return;
    }
    this.pending.set(streamId, { streamId, expectedVersion, events });
  }
}

/** Attempts of a command while the store is unavailable (each already bounded and resent by the store). */
const UNAVAILABLE_ATTEMPTS = 3;

const DRY_RUN_EVENT_ID = '00000000-0000-0000-0000-000000000000';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function readStream(events: StoredEvent[] | undefined): ReadStream {
  const last = events && events.length > 0 ? events[events.length - 1] : undefined;
  return { version: last?.version ?? 0, position: last?.position ?? null };
}

function loadTail(events: StoredEvent[] | undefined): LoadedTail {
  let state: TailState | null = null;
  for (const e of events ?? []) state = evolve(state, toTailEvent(e));
  return { ...readStream(events), state };
}


/**
 * Writes tail commands to the event store. Every command reads the tail and reservation
 * streams it depends on, decides with the pure domain, and appends everything it touched in
 * one atomic `append` with the versions it read; a concurrent writer makes that append fail
 * with `WrongExpectedVersionError`, and the command is read and decided again.
 */
export class TailWriter {
  private readonly maxAttempts: number;
  private readonly retryJitterMs: number;
  private readonly creates: Batcher<CreateOrMapRequest, CreateOrMapManyResult>;
  /** The last reservation read found every key free: the next batch skips the read (see below). */
  private assumeFreeReservations = true;

  constructor(
    private readonly eventStore: EventStore,
    private readonly reservations: ReservationStore,
    private readonly ids: TailIdAllocator,
    private readonly clock: () => Date = () => new Date(),
    options: TailWriterOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 10;
    this.retryJitterMs = options.retryJitterMs ?? 10;
    this.creates = new Batcher((requests) => this.createOrMapBatch(requests), {
      maxInFlight: options.maxConcurrentBatches ?? 2,
      maxWeight: options.maxBatchTails ?? 1000,
      weigh: (r) => r.inputs.length,
      // One caller's unexpected failure must not fail the callers merged with it.
      isolateFailures: true,
    });
  }

  /**
   * Create or map many tails (contract rules 1-3), applied in order and independently: a later
   * entry sees the effect of an earlier one, a failing entry does not stop the others.
   *
   * Calls running concurrently (e.g. many single PUTs) are merged into one batch, decided in
   * arrival order as if they had been sent one after the other: two read round trips, at most
   * one id allocation and one append per batch, however many callers it serves.
   */
  async createOrMapMany(ctx: TailWriterContext, inputs: TailInput[]): Promise<CreateOrMapManyResult> {
    if (inputs.length === 0) return { results: [], checkpoint: null };
    return this.creates.submit({ ctx, inputs });
  }

  /** Deactivates the tail the caller maps under `mappedId` (404 unknown, 409 already inactive). */
  deactivate(ctx: TailWriterContext, mappedId: string): Promise<TailCommandResult> {
    return this.retrying(() => this.simpleCommandOnce(ctx, mappedId, (meta) => ({ type: 'DeactivateTail', ...meta })));
  }

  /** Reactivates the tail the caller maps under `mappedId` (404 unknown, 409 already active). */
  reactivate(ctx: TailWriterContext, mappedId: string): Promise<TailCommandResult> {
    return this.retrying(() => this.simpleCommandOnce(ctx, mappedId, (meta) => ({ type: 'ReactivateTail', ...meta })));
  }

  /**
   * Gives the tail the caller maps under `mappedId` a new tail number (trimmed). The current
   * number (exactly) → no event; a number held by another tail of the domain → 409.
   */
  changeTailNumber(ctx: TailWriterContext, mappedId: string, newTailNumber: string): Promise<TailCommandResult> {
    return this.retrying(() => this.changeTailNumberOnce(ctx, mappedId, newTailNumber));
  }

  // --- create or map -------------------------------------------------------------------------

  private createOrMapBatch(requests: CreateOrMapRequest[]): Promise<CreateOrMapManyResult[]> {
    const idPool: number[] = [];
    return this.retrying(() => this.createOrMapBatchOnce(requests, idPool));
  }

  private async createOrMapBatchOnce(requests: CreateOrMapRequest[], idPool: number[]): Promise<CreateOrMapManyResult[]> {
    const entries: BatchEntry[] = requests.flatMap(({ ctx, inputs }) =>
      inputs.map((input) => {
        const tailNumber = trimTailNumber(input.tailNumber ?? '');
        return {
          ctx,
          input,
          tailNumber,
          mappedIdStream: mappedIdStreamId(ctx.domain, ctx.source, input.mappedId),
          tailNumberStream: tailNumber === '' ? null : tailNumberStreamId(ctx.domain, tailNumber),
        };
      }),
    );

    // Round trip 1: every reservation the batch may consult. While batches keep finding all of
    // theirs free (new tails, e.g. an integration's first sync), the read is skipped: the batch is
    // decided as if they were free. That is safe when every entry writes the keys its decision
    // assumed free (created, mapped, or no action on a tail created earlier in the batch): a key
    // that exists fails the write on its primary key. An invalid entry writes nothing, so a batch
    // with one is not written on the assumption. Either way the batch is then read and decided
    // again at once, and reads go on until a read finds every key free again.
    if (this.assumeFreeReservations) {
      try {
        const written = await this.decideAndWrite(requests, entries, new Map(), new Map(), idPool, true);
        if (written) return written;
      } catch (e) {
        if (!(e instanceof WrongExpectedVersionError)) throw e;
      }
      this.assumeFreeReservations = false;
    }
    const reservationIds = new Set<string>();
    for (const e of entries) {
      reservationIds.add(e.mappedIdStream);
      if (e.tailNumberStream) reservationIds.add(e.tailNumberStream);
    }
    const reservations = await this.reservations.read([...reservationIds]);
    const holders = new Set<number>();
    for (const r of reservations.values()) if (r.holder !== null) holders.add(r.holder);
    this.assumeFreeReservations = [...reservations.values()].every((r) => r.version === 0);

    // Round trip 2: the tails those reservations name.
    const tails = new Map<number, LoadedTail>();
    if (holders.size > 0) {
      const tailEvents = await this.eventStore.readStreams([...holders].map(tailStreamId));
      for (const tailId of holders) tails.set(tailId, loadTail(tailEvents.get(tailStreamId(tailId))));
    }
    return (await this.decideAndWrite(requests, entries, tails, reservations, idPool, false))!;
  }

  /**
   * Decides the batch on what was read (or assumed free), allocates the ids it needs, and writes
   * it. With `assumedFree`, returns null without writing when an entry is invalid.
   */
  private async decideAndWrite(
    requests: CreateOrMapRequest[],
    entries: BatchEntry[],
    tails: Map<number, LoadedTail>,
    reservations: Map<string, Reservation>,
    idPool: number[],
    assumedFree: boolean,
  ): Promise<CreateOrMapManyResult[] | null> {
    // The ids the batch needs (kept across retries; decisions never depend on id values). With
    // every key free, each entry creates a tail unless it repeats an earlier one of the batch: one
    // id per entry, and a repeat leaves a gap. Otherwise decide once with placeholder ids to learn
    // how many new tails there are, and allocate exactly those.
    let needed: number;
    if (assumedFree) needed = entries.length - idPool.length;
    else {
      let placeholder = 0;
      needed = this.decideBatch(entries, tails, reservations, () => --placeholder, false, idPool).created - idPool.length;
    }
    if (needed > 0) idPool.push(...(await this.ids.next(needed)));
    let taken = 0;
    const decided = this.decideBatch(
      entries,
      tails,
      reservations,
      () => {
        const id = idPool[taken++];
        if (id === undefined) throw new Error('Tail id pool exhausted');
        return id;
      },
      true,
      idPool,
    );
    if (assumedFree && decided.results.some((d) => d.result.outcome === 'invalid')) return null;

    const writes = decided.overlay.tailWrites();
    // A conflict throws here; the retry reuses the ids allocated so far.
    const appended =
      writes.length > 0 ? (await this.reservations.write(writes, decided.overlay.reservationChanges())).checkpoint.value : null;

    // Each caller's share: its results, and where they are readable: the append when they refer
    // to a tail it wrote (also "no action" on a tail another caller of the batch created).
    const written = new Set(decided.results.filter((d) => d.result.outcome === 'created' || d.result.outcome === 'mapped').map((d) => d.tailId));
    let next = 0;
    return requests.map(({ inputs }) => {
      const own = decided.results.slice(next, next + inputs.length);
      next += inputs.length;
      const referenced = new Set(own.map((d) => d.tailId).filter((id): id is number => id !== undefined));
      const positions = [...referenced].map((id) => (written.has(id) ? appended : (tails.get(id)?.position ?? null)));
      return { results: own.map((d) => d.result), checkpoint: this.latest(positions) };
    });
  }

  private decideBatch(
    entries: BatchEntry[],
    tails: Map<number, LoadedTail>,
    reservations: Map<string, Reservation>,
    nextTailId: () => number,
    record: boolean,
    /** Ids allocated to this batch: a claim naming one was written by an earlier attempt of it, not in flight. */
    ownTailIds: readonly number[],
  ): { overlay: Overlay; results: Decided[]; created: number } {
    const now = this.clock();
    const occurredAt = now.toISOString();
    const overlay = new Overlay(tails, reservations, record, (r) => claimMayBeInFlight(r, now) && !ownTailIds.includes(r.holder!));
    const results: Decided[] = [];
    let created = 0;

    for (const entry of entries) {
      const { ctx, input, tailNumber, mappedIdStream, tailNumberStream } = entry;
      const { domain, source } = ctx;
      const metadata = { domain, actor: source };
      try {
        if (!tailNumberStream) throw new TailNumberRequired('tailNumber');
        const key = tailNumberKey(tailNumber);
        const decision = createOrMap(
          {
            domain,
            source,
            mappedId: input.mappedId,
            tailNumber,
            properties: normalizeTailProperties(input),
            eventId: record ? newEventId() : DRY_RUN_EVENT_ID,
            occurredAt,
            nextTailId,
          },
          {
            tailMappedByM: overlay.holder(mappedIdStream, (t) => hasMapping(t, source, input.mappedId)),
            tailNumberedT: overlay.holder(tailNumberStream, (t) => t.domain === domain && tailNumberKey(t.tailNumber) === key),
          },
        );
        switch (decision.outcome) {
          case 'no-action':
            results.push({ result: { outcome: 'no-action', tailId: decision.tail.tailId }, tailId: decision.tail.tailId });
            break;
          case 'mapped': {
            const tailId = decision.tail.tailId;
            overlay.applyTail(tailId, decision.events, metadata);
            overlay.applyReservation(mappedIdStream, mappedIdClaimed(tailId), metadata);
            results.push({ result: { outcome: 'mapped', tailId }, tailId });
            break;
          }
          case 'created': {
            const tailId = decision.events[0].data.tailId;
            overlay.applyTail(tailId, decision.events, metadata);
            overlay.applyReservation(mappedIdStream, mappedIdClaimed(tailId), metadata);
            overlay.applyReservation(tailNumberStream, tailNumberClaimed(tailId), metadata);
            results.push({ result: { outcome: 'created', tailId }, tailId });
            created++;
            break;
          }
        }
      } catch (e) {
        if (isTailDomainError(e) && e.kind === 'validation') {
          results.push({ result: { outcome: 'invalid', fieldErrors: cloneFieldErrors(e.fieldErrors) } });
          continue;
        }
        throw e;
      }
    }
    return { overlay, results, created };
  }

  // --- commands on one existing tail -----------------------------------------------------------

  private async simpleCommandOnce(
    ctx: TailWriterContext,
    mappedId: string,
    command: (meta: { eventId: string; occurredAt: string; actor: string }) => TailCommand,
  ): Promise<TailCommandResult> {
    const { tailId, loaded, state } = await this.resolve(ctx, mappedId);
    const events = decide(command(this.meta(ctx)), state);
    return this.appendTail(ctx, tailId, loaded, state, events, []);
  }

  private async changeTailNumberOnce(ctx: TailWriterContext, mappedId: string, newTailNumber: string): Promise<TailCommandResult> {
    const { tailId, loaded, state } = await this.resolve(ctx, mappedId);
    const toTailNumber = trimTailNumber(newTailNumber ?? '');
    if (toTailNumber === '') throw new TailNumberRequired('newTailNumber');
    if (toTailNumber === state.tailNumber) return { tail: state, checkpoint: this.latest([loaded.position]) };

    const sameKey = tailNumberKey(toTailNumber) === tailNumberKey(state.tailNumber);
    const oldStream = tailNumberStreamId(ctx.domain, state.tailNumber);
    const newStream = tailNumberStreamId(ctx.domain, toTailNumber);
    let newNumberHeldBy: number | null = null;
    const changes: ReservationChange[] = [];

    if (!sameKey) {
      const read = await this.reservations.read([oldStream, newStream]);
      const oldRes = read.get(oldStream) ?? freeReservation;
      const newRes = read.get(newStream) ?? freeReservation;
      const holder = newRes.holder;
      if (holder !== null && holder !== tailId) {
        // Confirm the claim (a store that is not atomic across streams may leave a stale one, or
        // show one whose tail events another writer is still appending).
        const other = loadTail(await this.eventStore.readStream(tailStreamId(holder))).state;
        if (other && other.domain === ctx.domain && tailNumberKey(other.tailNumber) === tailNumberKey(toTailNumber)) {
          newNumberHeldBy = holder;
        } else if (claimMayBeInFlight(newRes, this.clock())) {
          throw new ReservationInFlight(newStream, newRes.version);
        }
      }
      const metadata = { domain: ctx.domain, actor: ctx.source };
      const change = (key: string, read: Reservation, event: ReservationEvent): ReservationChange => ({
        key,
        expectedVersion: read.version,
        events: [event],
        after: evolveReservation(read, event),
        metadata,
      });
      changes.push(change(oldStream, oldRes, tailNumberReleased(tailId)), change(newStream, newRes, tailNumberClaimed(tailId)));
    }

    const events = decide({ type: 'RenumberTail', ...this.meta(ctx), newTailNumber: toTailNumber, newNumberHeldBy }, state);
    return this.appendTail(ctx, tailId, loaded, state, events, events.length > 0 ? changes : []);
  }

  /** The tail the caller maps under `mappedId`, or `TailNotFound`. Two round trips. */
  private async resolve(ctx: TailWriterContext, mappedId: string): Promise<{ tailId: number; loaded: LoadedTail; state: TailState }> {
    const key = mappedIdStreamId(ctx.domain, ctx.source, mappedId);
    const tailId = (await this.reservations.read([key])).get(key)?.holder ?? null;
    if (tailId === null) throw new TailNotFound(mappedId);
    const loaded = loadTail(await this.eventStore.readStream(tailStreamId(tailId)));
    const state = loaded.state;
    if (!state || state.domain !== ctx.domain || !hasMapping(state, ctx.source, mappedId)) throw new TailNotFound(mappedId);
    return { tailId, loaded, state };
  }

  private async appendTail(
    ctx: TailWriterContext,
    tailId: number,
    loaded: LoadedTail,
    state: TailState,
    events: TailEvent[],
    changes: ReservationChange[],
  ): Promise<TailCommandResult> {
    if (events.length === 0) return { tail: state, checkpoint: this.latest([loaded.position]) };
    const metadata = { domain: ctx.domain, actor: ctx.source };
    const write: StreamWrite = {
      streamId: tailStreamId(tailId),
      expectedVersion: loaded.version,
      events: events.map((e) => ({ eventId: e.data.eventId, type: e.type, data: { ...e.data }, metadata })),
    };
    const appended = await this.reservations.write([write], changes);
    const tail = events.reduce<TailState>((s, e) => evolve(s, e), state);
    return { tail, checkpoint: appended.checkpoint };
  }

  // --- helpers ---------------------------------------------------------------------------------

  private meta(ctx: TailWriterContext): { eventId: string; occurredAt: string; actor: string } {
    return { eventId: newEventId(), occurredAt: this.clock().toISOString(), actor: ctx.source };
  }

  /** The latest of some positions (as checkpoints), `null` when none. */
  private latest(positions: (string | null)[]): AllCheckpoint | null {
    let best: AllCheckpoint | null = null;
    for (const value of positions) {
      if (value === null) continue;
      const cp = { value };
      if (best === null || !this.eventStore.isAtOrAfter(best, cp)) best = cp;
    }
    return best;
  }

  /**
   * Runs one attempt, again (after a short random pause) while a concurrent writer wins or the
   * store is unavailable. The store has already resent a timed-out write with the same event ids;
   * what it could not settle is decided again, and claims this command stored meanwhile count as
   * its own (they name its tail or ids from its pool).
   */
  private async retrying<T>(attempt: () => Promise<T>): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (e) {
        const attempts = e instanceof WrongExpectedVersionError ? this.maxAttempts : e instanceof EventStoreUnavailableError ? UNAVAILABLE_ATTEMPTS : 1;
        if (n >= attempts) throw e;
        await sleep(Math.random() * Math.min(this.retryJitterMs * 2 ** (n - 1), this.retryJitterMs * 50));
      }
    }
  }
}

function cloneFieldErrors(fieldErrors: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k, [...v]]));
}
