import type { TailProperties } from '@tailsync/contracts';

export type TailStatus = 'active' | 'inactive';

/** A Mapped ID of a tail: the caller's (source's) own identifier for it. */
export interface TailMapping {
  /** clientId of the service account that owns the Mapped ID. */
  source: string;
  mappedId: string;
}

/** The Tail aggregate's state, folded from its events by `evolve`. */
export interface TailState {
  tailId: number;
  domain: string;
  tailNumber: string;
  properties: TailProperties;
  status: TailStatus;
  /** In the order they were added; the creator's mapping first. */
  mappings: TailMapping[];
  /** Number of events applied (the tail stream's version). */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** State before the first event: the tail does not exist. */
export const initialState: TailState | null = null;

/** The Mapped ID the given source uses for the tail, if any. */
export function mappedIdOf(state: TailState, source: string): string | undefined {
  return state.mappings.find((m) => m.source === source)?.mappedId;
}

export function hasMapping(state: TailState, source: string, mappedId: string): boolean {
  return state.mappings.some((m) => m.source === source && m.mappedId === mappedId);
}
