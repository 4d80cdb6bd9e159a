import type { TailProperties } from '@tailsync/contracts';

/** Fields every tail event's data carries. */
export interface TailEventBase {
  /** uuid of the event (also the event store's event id). */
  eventId: string;
  domain: string;
  /** The service's own positive integer id of the tail. */
  tailId: number;
  /** clientId of the acting service account. */
  actor: string;
  /** ISO-8601 time the event occurred. */
  occurredAt: string;
}

export interface TailCreatedData extends TailEventBase, TailProperties {
  /** The creator's mapping: its source (clientId) and Mapped ID. */
  source: string;
  mappedId: string;
  tailNumber: string;
}

export interface MappingAddedData extends TailEventBase {
  source: string;
  mappedId: string;
}

export type TailDeactivatedData = TailEventBase;
export type TailReactivatedData = TailEventBase;

export interface TailRenumberedData extends TailEventBase {
  fromTailNumber: string;
  toTailNumber: string;
}

export interface TailCreated {
  type: 'TailCreated';
  data: TailCreatedData;
}
export interface MappingAdded {
  type: 'MappingAdded';
  data: MappingAddedData;
}
export interface TailDeactivated {
  type: 'TailDeactivated';
  data: TailDeactivatedData;
}
export interface TailReactivated {
  type: 'TailReactivated';
  data: TailReactivatedData;
}
export interface TailRenumbered {
  type: 'TailRenumbered';
  data: TailRenumberedData;
}

export type TailEvent = TailCreated | MappingAdded | TailDeactivated | TailReactivated | TailRenumbered;
export type TailEventType = TailEvent['type'];

export const TAIL_EVENT_TYPES: readonly TailEventType[] = [
  'TailCreated',
  'MappingAdded',
  'TailDeactivated',
  'TailReactivated',
  'TailRenumbered',
];

export function isTailEventType(type: string): type is TailEventType {
  return (TAIL_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * Narrows a stored `{ type, data }` (e.g. an event store record) to a `TailEvent`.
 * Throws on an unknown type: a tail stream only ever holds tail events.
 */
export function toTailEvent(stored: { type: string; data: Record<string, unknown> }): TailEvent {
  if (!isTailEventType(stored.type)) throw new Error(`Not a tail event: ${stored.type}`);
  return { type: stored.type, data: stored.data } as unknown as TailEvent;
}
