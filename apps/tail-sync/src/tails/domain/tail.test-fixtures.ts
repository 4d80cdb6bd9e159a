// Builders shared by the domain's unit tests (not part of the production API).
import { normalizeTailProperties, type TailProperties } from '@tailsync/contracts';
import type { TailCommand } from './tail.commands';
import { evolve } from './tail.decider';
import type { TailEvent } from './tail.events';
import type { TailState } from './tail.state';

export const T0 = '2025-01-01T00:00:00.000Z';
export const T1 = '2025-01-02T00:00:00.000Z';

export const noProperties: TailProperties = normalizeTailProperties({});

let seq = 0;
export const uuid = (): string => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

export function created(over: Partial<Extract<TailEvent, { type: 'TailCreated' }>['data']> = {}): TailEvent {
  return {
    type: 'TailCreated',
    data: {
      eventId: uuid(),
      domain: 'acme',
      tailId: 7,
      actor: 'client-a',
      occurredAt: T0,
      source: 'client-a',
      mappedId: 'M-1',
      tailNumber: 'N123',
      ...noProperties,
      ...over,
    },
  };
}

export function tail(over: Partial<Extract<TailEvent, { type: 'TailCreated' }>['data']> = {}, ...more: TailEvent[]): TailState {
  return [created(over), ...more].reduce<TailState | null>((s, e) => evolve(s, e), null) as TailState;
}

export function meta(actor = 'client-a'): Pick<TailCommand, 'eventId' | 'occurredAt' | 'actor'> {
  return { eventId: uuid(), occurredAt: T1, actor };
}
