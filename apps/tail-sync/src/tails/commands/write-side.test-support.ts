/**
 * Test support (imported by specs only): the write side's use cases over one event store,
 * reservation store and id allocator, as `tails.module.ts` wires them.
 */
import type { EventStore } from '@tailsync/event-store';
import type { CallerContext } from '../application/caller-context';
import type { TailSubmission } from '@tailsync/contracts';
import { CreateOrMapUseCase, type CreateOrMapManyResult, type CreateOrMapOptions } from './create-or-map/create-or-map.use-case';
import type { ReservationStore } from '../application/reservation-store';
import type { TailIdAllocator } from '../application/tail-id-allocator';
import { ChangeTailUseCase, type TailCommandResult } from './change-tail/change-tail.use-case';
import { TailStreams } from '../application/tail-streams';

export interface WriteSide {
  createOrMapMany(ctx: CallerContext, inputs: TailSubmission[]): Promise<CreateOrMapManyResult>;
  deactivate(ctx: CallerContext, mappedId: string): Promise<TailCommandResult>;
  reactivate(ctx: CallerContext, mappedId: string): Promise<TailCommandResult>;
  changeTailNumber(ctx: CallerContext, mappedId: string, newTailNumber: string): Promise<TailCommandResult>;
}

export function createWriteSide(
  store: EventStore,
  reservations: ReservationStore,
  ids: TailIdAllocator,
  clock?: () => Date,
  options: CreateOrMapOptions = {},
): WriteSide {
  const streams = new TailStreams(store, reservations);
  const creates = new CreateOrMapUseCase(streams, ids, clock, options);
  const changes = new ChangeTailUseCase(streams, clock, options);
  return {
    createOrMapMany: (ctx, inputs) => creates.createOrMapMany(ctx, inputs),
    deactivate: (ctx, mappedId) => changes.deactivate(ctx, mappedId),
    reactivate: (ctx, mappedId) => changes.reactivate(ctx, mappedId),
    changeTailNumber: (ctx, mappedId, n) => changes.changeTailNumber(ctx, mappedId, n),
  };
}
