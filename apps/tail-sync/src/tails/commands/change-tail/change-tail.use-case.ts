import { newEventId, type AllCheckpoint, type StreamWrite } from '@tailsync/event-store';
import { evolveReservation, freeReservation, tailNumberClaimed, tailNumberReleased, type Reservation, type ReservationEvent } from '../../domain/reservation.events';
import { mappedIdStreamId, tailNumberStreamId, tailStreamId } from '../../domain/stream-ids';
import type { TailCommand } from '../../domain/tail.commands';
import { decide, evolve } from '../../domain/tail.decider';
import { TailNotFound, TailNumberRequired } from '../../domain/tail.errors';
import type { TailEvent } from '../../domain/tail.events';
import { tailNumberKey, trimTailNumber } from '../../domain/tail-number';
import { hasMapping, type TailState } from '../../domain/tail.state';
import { type CallerContext, eventMetadataOf } from '../../application/caller-context';
import { ReservationInFlight, type ReservationChange } from '../../application/reservation-store';
import { retryOnConflict, type RetryPolicy } from '../../application/retry-on-conflict';
import type { LoadedTail, TailStreams } from '../../application/tail-streams';

export interface TailCommandResult {
  /** The tail after the command. */
  tail: TailState;
  /** Where the effect is readable: the append's checkpoint (null when the append wrote its read-model rows), or the tail's newest event position when nothing changed. */
  checkpoint: AllCheckpoint | null;
}

type CommandMeta = { eventId: string; occurredAt: string; actor: string };

/**
 * The commands on one existing tail (deactivate, reactivate, renumber): resolve the tail the caller
 * maps, decide with the pure decider, append with the versions read; decided again on a conflict.
 */
export class ChangeTailUseCase {
  constructor(
    private readonly streams: TailStreams,
    private readonly clock: () => Date = () => new Date(),
    private readonly retry: RetryPolicy = {},
  ) {}

  /** Deactivates the tail the caller maps under `mappedId` (404 unknown, 409 already inactive). */
  deactivate(ctx: CallerContext, mappedId: string): Promise<TailCommandResult> {
    return retryOnConflict(() => this.decideAndAppend(ctx, mappedId, (meta) => ({ type: 'DeactivateTail', ...meta })), this.retry);
  }

  /** Reactivates the tail the caller maps under `mappedId` (404 unknown, 409 already active). */
  reactivate(ctx: CallerContext, mappedId: string): Promise<TailCommandResult> {
    return retryOnConflict(() => this.decideAndAppend(ctx, mappedId, (meta) => ({ type: 'ReactivateTail', ...meta })), this.retry);
  }

  /**
   * Gives the tail the caller maps under `mappedId` a new tail number (trimmed). The current
   * number (exactly) → no event; a number held by another tail of the domain → 409.
   */
  changeTailNumber(ctx: CallerContext, mappedId: string, newTailNumber: string): Promise<TailCommandResult> {
    return retryOnConflict(() => this.renumberOnce(ctx, mappedId, newTailNumber), this.retry);
  }

  private async decideAndAppend(ctx: CallerContext, mappedId: string, command: (meta: CommandMeta) => TailCommand): Promise<TailCommandResult> {
    const { tailId, loaded, state } = await this.resolve(ctx, mappedId);
    const events = decide(command(this.meta(ctx)), state);
    return this.append(ctx, tailId, loaded, state, events, []);
  }

  private async renumberOnce(ctx: CallerContext, mappedId: string, newTailNumber: string): Promise<TailCommandResult> {
    const { tailId, loaded, state } = await this.resolve(ctx, mappedId);
    const toTailNumber = trimTailNumber(newTailNumber ?? '');
    if (toTailNumber === '') throw new TailNumberRequired('newTailNumber');
    if (toTailNumber === state.tailNumber) return { tail: state, checkpoint: this.streams.latest([loaded.position]) };

    const sameKey = tailNumberKey(toTailNumber) === tailNumberKey(state.tailNumber);
    const oldStream = tailNumberStreamId(ctx.domain, state.tailNumber);
    const newStream = tailNumberStreamId(ctx.domain, toTailNumber);
    let newNumberHeldBy: number | null = null;
    const changes: ReservationChange[] = [];

    if (!sameKey) {
      const read = await this.streams.reservations([oldStream, newStream]);
      const oldRes = read.get(oldStream) ?? freeReservation;
      const newRes = read.get(newStream) ?? freeReservation;
      const holder = newRes.holder;
      if (holder !== null && holder !== tailId) {
        // Confirm the claim (a store that is not atomic across streams may leave a stale one, or
        // show one whose tail events another writer is still appending).
        const other = (await this.streams.tail(holder)).state;
        if (other && other.domain === ctx.domain && tailNumberKey(other.tailNumber) === tailNumberKey(toTailNumber)) {
          newNumberHeldBy = holder;
        } else if (this.streams.claimMayBeInFlight(newRes, this.clock())) {
          throw new ReservationInFlight(newStream, newRes.version);
        }
      }
      const metadata = eventMetadataOf(ctx);
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
    return this.append(ctx, tailId, loaded, state, events, events.length > 0 ? changes : []);
  }

  /** The tail the caller maps under `mappedId`, or `TailNotFound`. Two round trips. */
  private async resolve(ctx: CallerContext, mappedId: string): Promise<{ tailId: number; loaded: LoadedTail; state: TailState }> {
    const key = mappedIdStreamId(ctx.domain, ctx.source, mappedId);
    const tailId = (await this.streams.reservations([key])).get(key)?.holder ?? null;
    if (tailId === null) throw new TailNotFound(mappedId);
    const loaded = await this.streams.tail(tailId);
    const state = loaded.state;
    if (!state || state.domain !== ctx.domain || !hasMapping(state, ctx.source, mappedId)) throw new TailNotFound(mappedId);
    return { tailId, loaded, state };
  }

  private async append(
    ctx: CallerContext,
    tailId: number,
    loaded: LoadedTail,
    state: TailState,
    events: TailEvent[],
    changes: ReservationChange[],
  ): Promise<TailCommandResult> {
    if (events.length === 0) return { tail: state, checkpoint: this.streams.latest([loaded.position]) };
    const metadata = eventMetadataOf(ctx);
    const write: StreamWrite = {
      streamId: tailStreamId(tailId),
      expectedVersion: loaded.version,
      events: events.map((e) => ({ eventId: e.data.eventId, type: e.type, data: { ...e.data }, metadata })),
    };
    const readableAt = await this.streams.append([write], changes);
    const tail = events.reduce<TailState>((s, e) => evolve(s, e), state);
    return { tail, checkpoint: readableAt };
  }

  private meta(ctx: CallerContext): CommandMeta {
    return { eventId: newEventId(), occurredAt: this.clock().toISOString(), actor: ctx.source };
  }
}
