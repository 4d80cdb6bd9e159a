import type { TailListPage, TailListQuery, TailView } from '@tailsync/contracts';
import type { AllCheckpoint } from '@tailsync/event-store';

/** Tokens of the adapters the application needs; the tails module binds them (the event store: the process's core). */
export const EVENT_STORE = Symbol('EVENT_STORE');
/** The `ReservationStore` (reservation-store.ts) that `TailStreams` appends with. */
export const RESERVATION_STORE = Symbol('RESERVATION_STORE');
/** The `TailIdAllocator` (tail-id-allocator.ts) new tails take their ids from. */
export const TAIL_ID_ALLOCATOR = Symbol('TAIL_ID_ALLOCATOR');
export const PROJECTION_WAITER = Symbol('PROJECTION_WAITER');
export const TAIL_VIEWS = Symbol('TAIL_VIEWS');

/** A read model that a command waits for, so its answer is readable by every caller of the domain. */
export interface ProjectionWaiter {
  waitFor(checkpoint: AllCheckpoint, timeoutMs: number): Promise<void>;
}

/** The read model's views of tails, as a caller (`source`) of a domain sees them. */
export interface TailViews {
  getByMappedId(domain: string, source: string, mappedId: string): Promise<TailView | null>;
  list(domain: string, source: string, query?: TailListQuery): Promise<TailListPage>;
}

/** How long a command waits for its effect to be readable before answering 503. */
export const READ_YOUR_WRITES_TIMEOUT_MS = 5000;
