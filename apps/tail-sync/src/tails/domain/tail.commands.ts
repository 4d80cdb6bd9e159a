import type { TailProperties } from '@tailsync/contracts';

/**
 * What every command carries so that `decide` stays pure and deterministic: the id and time
 * of the event it may produce and the acting service account.
 */
export interface CommandMeta {
  eventId: string;
  /** ISO-8601. */
  occurredAt: string;
  /** clientId of the acting service account. */
  actor: string;
}

export interface CreateTail extends CommandMeta {
  type: 'CreateTail';
  /** The new tail's service id (allocated beforehand). */
  tailId: number;
  domain: string;
  /** The creator's mapping. */
  source: string;
  mappedId: string;
  tailNumber: string;
  properties: TailProperties;
}

export interface AddMapping extends CommandMeta {
  type: 'AddMapping';
  source: string;
  mappedId: string;
}

export interface DeactivateTail extends CommandMeta {
  type: 'DeactivateTail';
}

export interface ReactivateTail extends CommandMeta {
  type: 'ReactivateTail';
}

export interface RenumberTail extends CommandMeta {
  type: 'RenumberTail';
  newTailNumber: string;
  /**
   * The tail of the domain currently holding `newTailNumber` (compared case-insensitively),
   * `null` when none. Looked up by the caller: uniqueness spans aggregates.
   */
  newNumberHeldBy: number | null;
}

export type TailCommand = CreateTail | AddMapping | DeactivateTail | ReactivateTail | RenumberTail;
export type TailCommandType = TailCommand['type'];
