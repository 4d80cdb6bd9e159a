import type { Pool, PoolClient } from 'pg';
import { inSchema } from '@tailsync/service-kit';
import { WrongExpectedVersionError, type PostgresEventStore, type StreamWrite } from '@tailsync/event-store';
import { freeReservation, type Reservation } from '../../domain/reservation.events';
import type { ReservationChange, ReservationStore, TailAppend } from '../../application/reservation-store';
import { readModelTables } from '../read-model/read-model.tables';
import { TailRowsInAppend } from '../read-model/tail-rows.in-append';

/** The reservation's row changed (or appeared) since it was read. */
class ReservationConflict extends WrongExpectedVersionError {}

/**
 * Reservations as rows of one table (key → holding tail, version), changed in the same
 * PostgreSQL transaction as the append of the tail events (`appendAsPartOf`): a new tail
 * costs two small rows instead of two more events and stream rows, and a reservation read is a
 * primary-key lookup. The version check is the stream's: an insert for version 0 fails on the
 * primary key, an update matches only the version read. The table, `tail_reservations`, is made
 * (and, on a database of an earlier version, filled from its reservation streams) by tail-sync's
 * migrations. The same transaction writes the read-model rows of the tails (`TailRowsInAppend`,
 * tables in the same schema), so the command's effect is readable once it commits.
 */
export class PostgresReservations implements ReservationStore {
  private readonly table: string;
  private readonly rows: TailRowsInAppend;

  constructor(
    private readonly pool: Pool,
    private readonly eventStore: PostgresEventStore,
    /** Schema of the table. Default: the connection's `search_path`. */
    opts: { schema?: string } = {},
  ) {
    this.table = inSchema(opts.schema, 'tail_reservations');
    this.rows = new TailRowsInAppend(readModelTables(opts.schema));
  }

  async read(keys: string[]): Promise<Map<string, Reservation>> {
    const out = new Map<string, Reservation>(keys.map((k) => [k, freeReservation]));
    if (keys.length === 0) return out;
    // A join with the unnested keys, not `key = any($1)`: with a constant array of 2,000 keys the
    // latter spent ~25 ms sorting and deduplicating them (a 1,000-tail call), the join ~8 ms.
    const { rows } = await this.pool.query<{ key: string; holder: string | null; version: number }>(
      `select r.key, r.holder::text as holder, r.version from unnest($1::text[]) as k(key) join ${this.table} r on r.key = k.key`,
      [keys],
    );
    for (const r of rows) out.set(r.key, { holder: r.holder === null ? null : Number(r.holder), version: r.version });
    return out;
  }

  /** Rows change in the same transaction as their tail's events: a claim is never in flight. */
  mayBeInFlight(): boolean {
    return false;
  }

  async write(tailWrites: StreamWrite[], changes: ReservationChange[]): Promise<TailAppend> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      try {
        // Reservations first: a key that is taken (the writer may assume keys free) fails the
        // transaction before the events are written.
        await this.apply(client, changes);
        const appended = await this.eventStore.appendAsPartOf(client, tailWrites);
        const readModelCurrent = await this.rows.write(client, tailWrites);
        await client.query('commit');
        return { ...appended, readModelCurrent };
      } catch (err) {
        await client.query('rollback').catch(() => {
          broken = true;
        });
        throw asConflict(err);
      }
    } catch (err) {
      broken ||= !(err instanceof WrongExpectedVersionError);
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  /** Inserts the new reservations and updates the others, both in key order; a mismatch is a conflict. */
  private async apply(client: PoolClient, changes: ReservationChange[]): Promise<void> {
    const sorted = [...changes].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const created = sorted.filter((c) => c.expectedVersion === 0);
    const updated = sorted.filter((c) => c.expectedVersion > 0);
    const columns = (cs: ReservationChange[]) => [cs.map((c) => c.key), cs.map((c) => c.after.holder), cs.map((c) => c.after.version)];
    if (created.length > 0) {
      await client.query(
        `insert into ${this.table} (key, holder, version)
         select u.key, u.holder, u.version from unnest($1::text[], $2::bigint[], $3::int[]) as u(key, holder, version)
          order by u.key collate "C"`,
        columns(created),
      );
    }
    if (updated.length > 0) {
      const { rowCount } = await client.query(
        `update ${this.table} r set holder = u.holder, version = u.version
           from unnest($1::text[], $2::bigint[], $3::int[], $4::int[]) as u(key, holder, version, expected)
          where r.key = u.key and r.version = u.expected`,
        [...columns(updated), updated.map((c) => c.expectedVersion)],
      );
      if (rowCount !== updated.length) throw new ReservationConflict(`${this.table}(${updated.length} rows)`, 'any', -1);
    }
  }
}

/** A row inserted by a concurrent writer (primary key) or a deadlock between two writers: decide again. */
function asConflict(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '23505' || code === '40P01') return new ReservationConflict('tail reservations', 'any', -1);
  return err;
}
