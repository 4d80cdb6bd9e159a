import { Batcher } from '@tailsync/service-kit';
import { normalizeTailProperties, type CreateOrMapOutcome, type TailSubmission } from '@tailsync/contracts';
import { WrongExpectedVersionError, type AllCheckpoint } from '@tailsync/event-store';
import { createOrMap } from '../../domain/create-or-map';
import { mappedIdClaimed, tailNumberClaimed, type Reservation } from '../../domain/reservation.events';
import { mappedIdStreamId, tailNumberStreamId } from '../../domain/stream-ids';
import { TailNumberRequired, isTailDomainError } from '../../domain/tail.errors';
import { tailNumberKey, trimTailNumber } from '../../domain/tail-number';
import { hasMapping } from '../../domain/tail.state';
import { BatchDraft, BatchDraftWithWrites } from './batch-draft';
import { type CallerContext, eventMetadataOf } from '../../application/caller-context';
import { retryOnConflict, type RetryPolicy } from '../../application/retry-on-conflict';
import { placeholderIds, TailIdPlan } from './tail-id-plan';
import type { TailIdAllocator } from '../../application/tail-id-allocator';
import type { LoadedTail, TailStreams } from '../../application/tail-streams';

export interface CreateOrMapManyResult {
  /** One per input, in input order. */
  results: CreateOrMapOutcome[];
  /**
   * Where the effect of the call is readable: the append's checkpoint, or (nothing appended)
   * the position of the newest event of the tails the results refer to; `null` when none.
   */
  checkpoint: AllCheckpoint | null;
}

export interface CreateOrMapOptions extends RetryPolicy {
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
  ctx: CallerContext;
  inputs: TailSubmission[];
}

/** One tail of a (merged) batch, with its caller and the reservation streams it consults. */
interface BatchEntry {
  ctx: CallerContext;
  input: TailSubmission;
  tailNumber: string;
  mappedIdStream: string;
  tailNumberStream: string | null;
}

/** What a batch read: the reservations it consults and the tails they name. */
interface BatchRead {
  tails: Map<number, LoadedTail>;
  reservations: Map<string, Reservation>;
}

/** Result of deciding one entry of a batch. */
type Decided = { result: CreateOrMapOutcome; tailId?: number };

/**
 * The create-or-map use case (contract rules 1-3): a batch of tails is read, decided in order with
 * the pure decider (`domain/create-or-map.ts`) on a {@link BatchDraft}, and appended once
 * (`TailStreams.append`) with the versions it read; a concurrent writer makes the append fail and
 * the batch is read and decided again.
 */
export class CreateOrMapUseCase {
  private readonly creates: Batcher<CreateOrMapRequest, CreateOrMapManyResult>;
  /** The last reservation read found every key free: the next batch skips the read (see `attempt`). */
  private assumeFreeReservations = true;

  constructor(
    private readonly streams: TailStreams,
    private readonly ids: TailIdAllocator,
    private readonly clock: () => Date = () => new Date(),
    private readonly options: CreateOrMapOptions = {},
  ) {
    this.creates = new Batcher((requests) => this.createOrMapBatch(requests), {
      maxInFlight: options.maxConcurrentBatches ?? 2,
      maxWeight: options.maxBatchTails ?? 1000,
      weigh: (r) => r.inputs.length,
      // One caller's unexpected failure must not fail the callers merged with it.
      isolateFailures: true,
    });
  }

  /**
   * Create or map many tails, applied in order and independently: a later entry sees the effect of
   * an earlier one, a failing entry does not stop the others.
   *
   * Calls running concurrently (e.g. many single PUTs) are merged into one batch, decided in
   * arrival order as if they had been sent one after the other: two read round trips, at most
   * one id allocation and one append per batch, however many callers it serves.
   */
  async createOrMapMany(ctx: CallerContext, inputs: TailSubmission[]): Promise<CreateOrMapManyResult> {
    if (inputs.length === 0) return { results: [], checkpoint: null };
    return this.creates.submit({ ctx, inputs });
  }

  private createOrMapBatch(requests: CreateOrMapRequest[]): Promise<CreateOrMapManyResult[]> {
    const plan = new TailIdPlan(this.ids);
    return retryOnConflict(() => this.attempt(requests, plan), this.options);
  }

  private async attempt(requests: CreateOrMapRequest[], plan: TailIdPlan): Promise<CreateOrMapManyResult[]> {
    const entries = toEntries(requests);
    // While batches keep finding all of their reservations free (new tails, e.g. an integration's
    // first sync), the read is skipped; a taken key fails the write on its primary key, and the
    // batch is then read and decided again at once, and reads go on until one finds every key free.
    if (this.assumeFreeReservations) {
      try {
        const written = await this.writeAssumingFree(requests, entries, plan);
        if (written) return written;
      } catch (e) {
        if (!(e instanceof WrongExpectedVersionError)) throw e;
      }
      this.assumeFreeReservations = false;
    }
    return this.readDecideAndWrite(requests, entries, plan);
  }

  /**
   * Decides the batch as if every key were free and writes it. That is safe when every entry writes
   * the keys its decision assumed free (created, mapped, or no action on a tail created earlier in
   * the batch); an invalid entry writes nothing, so a batch with one is not written (null).
   */
  private async writeAssumingFree(requests: CreateOrMapRequest[], entries: BatchEntry[], plan: TailIdPlan): Promise<CreateOrMapManyResult[] | null> {
    const read: BatchRead = { tails: new Map(), reservations: new Map() };
    // With every key free each entry creates a tail unless it repeats an earlier one of the
    // batch: one id per entry, and a repeat leaves a gap.
    await plan.provide(entries.length);
    const now = this.clock();
    const draft = new BatchDraftWithWrites(read.tails, read.reservations, this.inFlight(now, plan));
    const results = this.decideBatch(entries, draft, plan.handOut(), now).results;
    if (results.some((d) => d.result.outcome === 'invalid')) return null;
    return this.append(requests, draft, results, read);
  }

  /** Reads what the batch consults (two round trips), allocates exactly the ids it needs, decides and writes it. */
  private async readDecideAndWrite(requests: CreateOrMapRequest[], entries: BatchEntry[], plan: TailIdPlan): Promise<CreateOrMapManyResult[]> {
    const reservationIds = new Set<string>();
    for (const e of entries) {
      reservationIds.add(e.mappedIdStream);
      if (e.tailNumberStream) reservationIds.add(e.tailNumberStream);
    }
    const reservations = await this.streams.reservations([...reservationIds]);
    const holders = new Set<number>();
    for (const r of reservations.values()) if (r.holder !== null) holders.add(r.holder);
    this.assumeFreeReservations = [...reservations.values()].every((r) => r.version === 0);
    const read: BatchRead = { tails: holders.size > 0 ? await this.streams.tails(holders) : new Map(), reservations };

    // Decided once with placeholder ids to learn how many new tails there are.
    const counting = this.clock();
    const counted = this.decideBatch(entries, new BatchDraft(read.tails, read.reservations, this.inFlight(counting, plan)), placeholderIds(), counting);
    await plan.provide(counted.created);
    const now = this.clock();
    const draft = new BatchDraftWithWrites(read.tails, read.reservations, this.inFlight(now, plan));
    return this.append(requests, draft, this.decideBatch(entries, draft, plan.handOut(), now).results, read);
  }

  /** A claim may be in flight unless it names ids from the batch's own pool (an earlier attempt of it). */
  private inFlight(now: Date, plan: TailIdPlan): (r: Reservation) => boolean {
    return (r) => this.streams.claimMayBeInFlight(r, now) && !plan.owns(r.holder!);
  }

  /** Appends the batch (a conflict throws; the retry reuses the ids), then each caller's share. */
  private async append(requests: CreateOrMapRequest[], draft: BatchDraftWithWrites, decided: Decided[], read: BatchRead): Promise<CreateOrMapManyResult[]> {
    const writes = draft.tailWrites();
    const appended = writes.length > 0 ? ((await this.streams.append(writes, draft.reservationChanges()))?.value ?? null) : null;

    // Each caller's share: its results, and where they are readable: the append when they refer
    // to a tail it wrote (also "no action" on a tail another caller of the batch created), unless
    // the append wrote their rows itself.
    const written = new Set(decided.filter((d) => d.result.outcome === 'created' || d.result.outcome === 'mapped').map((d) => d.tailId));
    let next = 0;
    return requests.map(({ inputs }) => {
      const own = decided.slice(next, next + inputs.length);
      next += inputs.length;
      const referenced = new Set(own.map((d) => d.tailId).filter((id): id is number => id !== undefined));
      const positions = [...referenced].map((id) => (written.has(id) ? appended : (read.tails.get(id)?.position ?? null)));
      return { results: own.map((d) => d.result), checkpoint: this.streams.latest(positions) };
    });
  }

  /** Decides every entry in order on `draft`, each seeing the effect of the ones before it. */
  private decideBatch(entries: BatchEntry[], draft: BatchDraft, nextTailId: () => number, now: Date): { results: Decided[]; created: number } {
    const occurredAt = now.toISOString();
    const results: Decided[] = [];
    let created = 0;

    for (const entry of entries) {
      const { ctx, input, tailNumber, mappedIdStream, tailNumberStream } = entry;
      const { domain, source } = ctx;
      const metadata = eventMetadataOf(ctx);
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
            eventId: draft.eventId(),
            occurredAt,
            nextTailId,
          },
          {
            tailMappedByM: draft.holder(mappedIdStream, (t) => hasMapping(t, source, input.mappedId)),
            tailNumberedT: draft.holder(tailNumberStream, (t) => t.domain === domain && tailNumberKey(t.tailNumber) === key),
          },
        );
        switch (decision.outcome) {
          case 'no-action':
            results.push({ result: { outcome: 'no-action', tailId: decision.tail.tailId }, tailId: decision.tail.tailId });
            break;
          case 'mapped': {
            const tailId = decision.tail.tailId;
            draft.applyTail(tailId, decision.events, metadata);
            draft.applyReservation(mappedIdStream, mappedIdClaimed(tailId), metadata);
            results.push({ result: { outcome: 'mapped', tailId }, tailId });
            break;
          }
          case 'created': {
            const tailId = decision.events[0].data.tailId;
            draft.applyTail(tailId, decision.events, metadata);
            draft.applyReservation(mappedIdStream, mappedIdClaimed(tailId), metadata);
            draft.applyReservation(tailNumberStream, tailNumberClaimed(tailId), metadata);
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
    return { results, created };
  }
}

function toEntries(requests: CreateOrMapRequest[]): BatchEntry[] {
  return requests.flatMap(({ ctx, inputs }) =>
    inputs.map((input) => {
      const tailNumber = trimTailNumber(input.tailNumber ?? '');
      return {
        // A tail another request submitted in the same call (the gateway shares one caller's calls) keeps that request's trace.
        ctx: input.traceparent === undefined ? ctx : { ...ctx, traceparent: input.traceparent },
        input,
        tailNumber,
        mappedIdStream: mappedIdStreamId(ctx.domain, ctx.source, input.mappedId),
        tailNumberStream: tailNumber === '' ? null : tailNumberStreamId(ctx.domain, tailNumber),
      };
    }),
  );
}

function cloneFieldErrors(fieldErrors: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k, [...v]]));
}
