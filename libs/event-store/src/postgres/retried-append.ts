import type { PoolClient } from 'pg';
import { AppendResult, StreamWrite, WrongExpectedVersionError } from '../event-store.port';
import { appendAttempt, ConcurrentStreamWrite, NO_STREAM } from './append-attempt';
import type { AppendedEvents } from './appended-events';
import { isDatabaseError, isUniqueViolation } from './database-errors';
import type { EventTables } from './event-tables';
import { findStoredWrites, mergeResults } from './stored-writes';

/**
 * Rounds of one call: the call itself, then once more for its writes that a retried command had
 * not stored yet (after a conflict on the writes it had).
 */
const ROUNDS = 2;

/**
 * `append`: each round in a transaction of its own, attempted again on a transient conflict
 * (deadlock, serialization failure, a stream written concurrently between its lock and its
 * insert). After a version conflict or a reused event id, the writes a retried command already
 * stored succeed without being written again ({@link findStoredWrites}).
 */
export class RetriedAppend {
  constructor(
    private readonly tables: EventTables,
    private readonly appended: AppendedEvents,
    private readonly maxAttempts: number,
  ) {}

  run(client: PoolClient, writes: StreamWrite[]): Promise<AppendResult> {
    return this.recognisingStored(client, writes, ROUNDS);
  }

  private async recognisingStored(client: PoolClient, writes: StreamWrite[], rounds: number): Promise<AppendResult> {
    try {
      return await this.inTransaction(client, writes);
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError || isUniqueViolation(err, this.tables.eventIdKey))) throw err;
      const found = await findStoredWrites(client, this.tables, writes);
      if (!found) throw err;
      if (found.pending.length === 0) return found.stored;
      if (rounds <= 1) throw err;
      return mergeResults(found.stored, await this.recognisingStored(client, found.pending, rounds - 1));
    }
  }

  private async inTransaction(client: PoolClient, writes: StreamWrite[]): Promise<AppendResult> {
    for (let attempt = 1; ; attempt++) {
      await client.query('begin');
      try {
        const result = await appendAttempt(client, this.tables, this.appended, writes, NO_STREAM);
        await client.query('commit');
        return result;
      } catch (err) {
        try {
          await client.query('rollback');
        } catch (undoErr) {
          // The connection is unusable (the original error is the cause); append() destroys the client.
          throw Object.assign(new Error(`append failed and could not be undone: ${(undoErr as Error).message}`), { cause: err });
        }
        const transient = err instanceof ConcurrentStreamWrite || (isDatabaseError(err) && (err.code === '40P01' /* deadlock */ || err.code === '40001'));
        if (transient && attempt < this.maxAttempts) continue;
        if (err instanceof ConcurrentStreamWrite) throw new Error('append kept racing with concurrent writers of its streams; giving up');
        throw err;
      }
    }
  }
}
