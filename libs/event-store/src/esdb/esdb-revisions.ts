import { ANY, NO_STREAM, type AppendExpectedRevision } from '@eventstore/db-client';
import type { ExpectedVersion } from '../event-store.port';

/** The port's expected version (events in the stream) as EventStoreDB's expected revision (last event's index). */
export function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 0) return NO_STREAM;
  return BigInt(expected - 1);
}

/** A conflict's current revision as the port's version (`-1` when the server did not say). */
export function fromCurrentRevision(current: unknown): number {
  return typeof current === 'bigint' ? Number(current) + 1 : current === NO_STREAM ? 0 : -1;
}
