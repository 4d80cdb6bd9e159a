/**
 * Test support (imported by specs only): the write side's use cases over one event store,
 * reservation store and id allocator, as `tails.module.ts` wires them.
 */
import type { EventStore } from '@tailsync/event-store';
import type { CallerContext } from './caller-context';
import { CreateOrMapUseCase, type CreateOrMapManyResult, type CreateOrMapOptions, type TailInput } from './create-or-map.use-case';
import type { ReservationStore } from './reservation-store';
import type { TailIdAllocator } from './tail-id-allocator';
import { TailStateChanges, type TailCommandResult } from './tail-state-changes';
import { TailStreams } from './tail-streams';

export interface WriteSide {
  createOrMapMany(ctx: CallerContext, inputs: TailInput[]): Promise<CreateOrMapManyResult>;
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
  const changes = new TailStateChanges(streams, clock, options);
  return {
    createOrMapMany: (ctx, inputs) => creates.createOrMapMany(ctx, inputs),
    deactivate: (ctx, mappedId) => changes.deactivate(ctx, mappedId),
    reactivate: (ctx, mappedId) => changes.reactivate(ctx, mappedId),
    changeTailNumber: (ctx, mappedId, n) => changes.changeTailNumber(ctx, mappedId, n),
  };
}
