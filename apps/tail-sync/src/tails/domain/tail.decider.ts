import { normalizeTailProperties } from '@tailsync/contracts';
import type { TailCommand } from './tail.commands';
import type { TailEvent, TailEventBase } from './tail.events';
import {
  MappedIdConflict,
  TailAlreadyActive,
  TailAlreadyExists,
  TailAlreadyInactive,
  TailNotFound,
  TailNumberRequired,
  TailNumberTaken,
} from './tail.errors';
import { hasMapping, mappedIdOf, type TailState } from './tail.state';
import { tailNumberKey, trimTailNumber } from './tail-number';

/** Folds one event into the state. Pure; never throws on a well-formed history. */
export function evolve(state: TailState | null, event: TailEvent): TailState {
  if (event.type === 'TailCreated') {
    const d = event.data;
    return {
      tailId: d.tailId,
      domain: d.domain,
      tailNumber: d.tailNumber,
      // An event stored before a property existed lacks its key: the property is null.
      properties: normalizeTailProperties(d),
      status: 'active',
      mappings: [{ source: d.source, mappedId: d.mappedId }],
      version: 1,
      createdAt: d.occurredAt,
      updatedAt: d.occurredAt,
    };
  }
  if (!state) throw new Error(`${event.type} applied to a tail that does not exist (tail ${event.data.tailId})`);
  const next: TailState = { ...state, version: state.version + 1, updatedAt: event.data.occurredAt };
  switch (event.type) {
    case 'MappingAdded':
      next.mappings = [...state.mappings, { source: event.data.source, mappedId: event.data.mappedId }];
      return next;
    case 'TailDeactivated':
      next.status = 'inactive';
      return next;
    case 'TailReactivated':
      next.status = 'active';
      return next;
    case 'TailRenumbered':
      next.tailNumber = event.data.toTailNumber;
      return next;
  }
}

/** Folds a whole history. */
export function fold(events: readonly TailEvent[], state: TailState | null = null): TailState | null {
  return events.reduce<TailState | null>((s, e) => evolve(s, e), state);
}

function base(state: TailState, command: TailCommand): TailEventBase {
  return {
    eventId: command.eventId,
    domain: state.domain,
    tailId: state.tailId,
    actor: command.actor,
    occurredAt: command.occurredAt,
  };
}

/**
 * Decides the events a command produces against the current state, or throws a
 * `TailDomainError`. Pure: everything it needs is in the command and the state.
 */
export function decide(command: TailCommand, state: TailState | null): TailEvent[] {
  if (command.type === 'CreateTail') {
    if (state) throw new TailAlreadyExists(state.tailId);
    const tailNumber = trimTailNumber(command.tailNumber);
    if (tailNumber === '') throw new TailNumberRequired('tailNumber');
    return [
      {
        type: 'TailCreated',
        data: {
          eventId: command.eventId,
          domain: command.domain,
          tailId: command.tailId,
          actor: command.actor,
          occurredAt: command.occurredAt,
          source: command.source,
          mappedId: command.mappedId,
          tailNumber,
          // Exactly the table's keys, in its order: the stored event's JSON (and the Kafka value) keeps its bytes.
          ...normalizeTailProperties(command.properties),
        },
      },
    ];
  }

  if (!state) throw new TailNotFound();

  switch (command.type) {
    case 'AddMapping': {
      if (hasMapping(state, command.source, command.mappedId)) return [];
      const existing = mappedIdOf(state, command.source);
      if (existing !== undefined) throw new MappedIdConflict(state.tailId, command.mappedId, existing);
      return [{ type: 'MappingAdded', data: { ...base(state, command), source: command.source, mappedId: command.mappedId } }];
    }
    case 'DeactivateTail':
      if (state.status === 'inactive') throw new TailAlreadyInactive(state.tailId);
      return [{ type: 'TailDeactivated', data: base(state, command) }];
    case 'ReactivateTail':
      if (state.status === 'active') throw new TailAlreadyActive(state.tailId);
      return [{ type: 'TailReactivated', data: base(state, command) }];
    case 'RenumberTail': {
      const toTailNumber = trimTailNumber(command.newTailNumber);
      if (toTailNumber === '') throw new TailNumberRequired('newTailNumber');
      if (toTailNumber === state.tailNumber) return [];
      const heldByOther = command.newNumberHeldBy !== null && command.newNumberHeldBy !== state.tailId;
      // A change of case only keeps the tail's own number; any other holder is a conflict.
      if (heldByOther && tailNumberKey(toTailNumber) !== tailNumberKey(state.tailNumber)) {
        throw new TailNumberTaken(toTailNumber, command.newNumberHeldBy ?? undefined);
      }
      return [
        {
          type: 'TailRenumbered',
          data: { ...base(state, command), fromTailNumber: state.tailNumber, toTailNumber },
        },
      ];
    }
  }
}
