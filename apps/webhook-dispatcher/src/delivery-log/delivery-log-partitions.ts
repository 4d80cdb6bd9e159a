import { escapeIdentifier, type Pool } from 'pg';

/**
 * A week of the delivery log: `webhook_deliveries_to_<YYYYMMDD>` and `webhook_attempts_to_<YYYYMMDD>`,
 * what was created before that UTC midnight (a Monday) and from the Monday before, or from the start
 * for the first partition the migration made of the log it found.
 */
export interface LogWeek {
  /** `to_20261207`: the partitions' names end with it. */
  suffix: string;
  /** Exclusive: everything in the week was created before it. */
  end: Date;
  /** Holds everything created before `end` (the log as it was before partitioning). */
  fromStart: boolean;
}

const WEEK_NAME = /^webhook_deliveries_(to_(\d{4})(\d{2})(\d{2}))$/;

/** The weekly partitions of `webhook_deliveries` and `webhook_attempts` (migration 20261126220000000). */
export class DeliveryLogPartitions {
  constructor(private readonly pool: Pool) {}

  /** Creates the partitions of the week of `from` and of the `weeksAhead` next ones, those missing. */
  async addWeeks(from: Date, weeksAhead: number): Promise<void> {
    await this.pool.query('select webhook_delivery_log_add_weeks($1, $2)', [from, weeksAhead]);
  }

  /** The weekly partitions, oldest first (the default partition is not one). */
  async weeks(): Promise<LogWeek[]> {
    const { rows } = await this.pool.query<{ name: string; from_start: boolean }>(
      `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) like '%MINVALUE%' as from_start
         from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'webhook_deliveries'::regclass`,
    );
    const weeks: LogWeek[] = [];
    for (const { name, from_start } of rows) {
      const match = WEEK_NAME.exec(name);
      if (match) weeks.push({ suffix: match[1], end: new Date(Date.UTC(+match[2], +match[3] - 1, +match[4])), fromStart: from_start });
    }
    return weeks.sort((a, b) => a.end.getTime() - b.end.getTime());
  }

  /**
   * Drops a week's attempts and deliveries in one transaction, unless it holds a pending delivery
   * (then it stays, whole). Both tables are locked first, so no delivery of the week becomes pending
   * (a redelivery) between the check and the drop; waits at most `lockTimeoutMs` for them.
   */
  async dropWeek(week: LogWeek, lockTimeoutMs: number): Promise<'dropped' | 'pending'> {
    const deliveries = escapeIdentifier(`webhook_deliveries_${week.suffix}`);
    const attempts = escapeIdentifier(`webhook_attempts_${week.suffix}`);
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query(`set local lock_timeout = ${Math.round(lockTimeoutMs)}`);
      // The order the delivery statements take them in (the deliveries, then the attempts).
      await client.query('lock table webhook_deliveries, webhook_attempts in access exclusive mode');
      const { rows } = await client.query<{ pending: boolean }>(`select exists (select 1 from ${deliveries} where status = 'pending') as pending`);
      if (rows[0].pending) {
        await client.query('rollback');
        return 'pending';
      }
      await client.query(`drop table ${attempts}`);
      await client.query(`drop table ${deliveries}`);
      await client.query('commit');
      return 'dropped';
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Deletes the dedupe keys of deliveries created before `before` (their weeks are dropped), a
   * batch at a time so no statement holds many rows. Returns how many went.
   */
  async deleteKeysBefore(before: Date, batch = 10_000): Promise<number> {
    let deleted = 0;
    for (;;) {
      const { rowCount } = await this.pool.query(
        `delete from webhook_delivery_keys
          where ctid = any (array(select ctid from webhook_delivery_keys where created_at < $1 limit $2))`,
        [before, batch],
      );
      deleted += rowCount ?? 0;
      if ((rowCount ?? 0) < batch) return deleted;
    }
  }
}
