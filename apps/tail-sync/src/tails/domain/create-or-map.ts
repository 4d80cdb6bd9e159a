import { decide, fold } from './tail.decider';
import type { TailEvent } from './tail.events';
import { TailNumberRequired } from './tail.errors';
import type { TailProperties } from '@tailsync/contracts';
import { hasMapping, type TailState } from './tail.state';
import { tailNumberKey, trimTailNumber } from './tail-number';

/** One "create or map" request of source S in domain D for Mapped ID M and tail number T. */
export interface CreateOrMapCommand {
  domain: string;
  /** S: clientId of the calling service account (also the actor). */
  source: string;
  /** M: compared exactly. */
  mappedId: string;
  /** T: trimmed before use; compared case-insensitively. */
  tailNumber: string;
  properties: TailProperties;
  /** Id and time of the event the decision may produce. */
  eventId: string;
  occurredAt: string;
  /** Service id for a tail this decision creates; called at most once, and only for rule 3. */
  nextTailId: () => number;
}

/** What the caller looked up for the decision. */
export interface CreateOrMapLookup {
  /** The tail S maps under M in D, if any. */
  tailMappedByM: TailState | null;
  /** The tail of D currently numbered T (case-insensitively), if any. */
  tailNumberedT: TailState | null;
}

export type CreateOrMapDecision =
  | { outcome: 'no-action'; tail: TailState }
  /** `tail` is the state after `events`. */
  | { outcome: 'mapped'; tail: TailState; events: TailEvent[] }
  | { outcome: 'created'; events: TailEvent[] };

/**
 * The contract's three rules:
 * 1. M already maps to a tail of S → no action.
 * 2. else a tail of D numbered T exists → M is added to it (`MappingAdded`); throws
 *    `MappedIdConflict` (validation under `tailId`) when S already maps it under another M.
 * 3. else → a new tail (`TailCreated`, carrying the creator's mapping).
 *
 * Throws `TailNumberRequired` when T is empty once trimmed.
 */
export function createOrMap(command: CreateOrMapCommand, lookup: CreateOrMapLookup): CreateOrMapDecision {
  const { tailMappedByM, tailNumberedT } = lookup;
  const tailNumber = trimTailNumber(command.tailNumber);
  if (tailNumber === '') throw new TailNumberRequired('tailNumber');

  // Rule 1.
  if (tailMappedByM) {
    if (tailMappedByM.domain !== command.domain || !hasMapping(tailMappedByM, command.source, command.mappedId)) {
      throw new Error(`Lookup error: tail ${tailMappedByM.tailId} is not mapped by ${command.source} under "${command.mappedId}"`);
    }
    return { outcome: 'no-action', tail: tailMappedByM };
  }

  // Rule 2.
  if (tailNumberedT) {
    if (tailNumberedT.domain !== command.domain || tailNumberKey(tailNumberedT.tailNumber) !== tailNumberKey(tailNumber)) {
      throw new Error(`Lookup error: tail ${tailNumberedT.tailId} is not numbered "${tailNumber}" in ${command.domain}`);
    }
    const events = decide(
      {
        type: 'AddMapping',
        eventId: command.eventId,
        occurredAt: command.occurredAt,
        actor: command.source,
        source: command.source,
        mappedId: command.mappedId,
      },
      tailNumberedT,
    );
    return { outcome: 'mapped', tail: fold(events, tailNumberedT) as TailState, events };
  }

  // Rule 3.
  const events = decide(
    {
      type: 'CreateTail',
      eventId: command.eventId,
      occurredAt: command.occurredAt,
      actor: command.source,
      tailId: command.nextTailId(),
      domain: command.domain,
      source: command.source,
      mappedId: command.mappedId,
      tailNumber,
      properties: command.properties,
    },
    null,
  );
  return { outcome: 'created', events };
}
