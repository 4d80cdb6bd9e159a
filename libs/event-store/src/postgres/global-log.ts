import type { Pool } from 'pg';
import { ORIGIN_VALUE, parsePair } from '../checkpoint';
import type { AllCheckpoint, ReadAllOptions, ReadAllResult, StoredEvent } from '../event-store.port';
import type { AppendedEvents } from './appended-events';
import { EVENT_COLUMNS, EventRow, KEPT_OR_EVENT_COLUMNS, KeptEventRow, toStoredEvent } from './event-rows';
import type { EventTables } from './event-tables';

function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function resultOf(events: StoredEvent[], after: AllCheckpoint | null): ReadAllResult {
  return { events, checkpoint: events.length > 0 ? { value: events[events.length - 1].position } : after };
}

/**
 * The global log, `readAll` and its head. Its order is `(tx, position)`; only rows of transactions
 * older than the oldest one still running are returned, so a slow transaction is never skipped.
 * Events this process appended come from `appended` instead of the table where they can.
 */
export class GlobalLog {
  constructor(
    private readonly pool: Pool,
    private readonly tables: EventTables,
    private readonly appended: AppendedEvents,
  ) {}

  async readAll(after: AllCheckpoint | null, limit: number, opts: ReadAllOptions = {}): Promise<ReadAllResult> {
    if (!Number.isInteger(limit) || limit <= 0) return { events: [], checkpoint: after };
    const [tx, position] = parsePair(after?.value ?? ORIGIN_VALUE);
    const params: unknown[] = [tx.toString(), position.toString(), limit];
    let prefixFilter = '';
    if (opts.streamPrefixes && opts.streamPrefixes.length > 0) {
      params.push(opts.streamPrefixes.map(likePrefix));
      prefixFilter = 'and stream_id like any($4::text[])';
    }
    // Rows of transactions still in flight (tx >= xmin of our snapshot) are never returned, so a
    // row with a lower (tx, position) than one we return can never become visible later.
    // Order by the table's columns (e.*): the select list casts tx and position to text, and an
    // ORDER BY on those output names would sort "10" before "9".
    const where = `where (e.tx, e.position) > ($1::xid8, $2::bigint)
          and e.tx < pg_snapshot_xmin(pg_current_snapshot())
          ${prefixFilter}
        order by e.tx, e.position
        limit $3`;
    const kept = this.appended.transactionsFrom(tx);
    if (kept.length === 0) {
      const { rows } = await this.pool.query<EventRow>(`select ${EVENT_COLUMNS} from ${this.tables.events} e ${where}`, params);
      return resultOf(rows.map(toStoredEvent), after);
    }
    // Rows of transactions whose events this adapter appended come back as tx, position and id
    // only; the rest of them is in memory.
    params.push(kept);
    const { rows } = await this.pool.query<EventRow | KeptEventRow>(
      `select ${KEPT_OR_EVENT_COLUMNS}
         from (select e.*, e.tx = any($${params.length}::xid8[]) as kept from ${this.tables.events} e ${where}) e
        order by e.tx, e.position`,
      params,
    );
    const events: (StoredEvent | undefined)[] = rows.map((r) =>
      r.stream_id === null ? this.appended.take(`${r.tx}:${r.position}`, r.event_id) : toStoredEvent(r),
    );
    const missing = rows.filter((_, i) => events[i] === undefined);
    if (missing.length > 0) {
      // Kept for a transaction, but no longer kept (taken before, or dropped): read from the table.
      const { rows: found } = await this.pool.query<EventRow>(
        `select ${EVENT_COLUMNS} from unnest($1::xid8[], $2::bigint[]) as k(kept_tx, kept_position)
           join ${this.tables.events} e on e.tx = k.kept_tx and e.position = k.kept_position`,
        [missing.map((r) => r.tx), missing.map((r) => r.position)],
      );
      const byPosition = new Map(found.map((r) => [r.position, toStoredEvent(r)]));
      rows.forEach((r, i) => (events[i] ??= byPosition.get(r.position)));
    }
    return resultOf(events as StoredEvent[], after);
  }

  async headCheckpoint(): Promise<AllCheckpoint | null> {
    // The key (tx, position) read backwards: one index probe. Rows of transactions in flight are
    // invisible here, so the head is at most what readAll will eventually reach.
    // Ordered by the table's columns, not by the text output (a bare `tx` would name the output).
    const { rows } = await this.pool.query<{ head: string }>(
      `select e.tx::text || ':' || e.position::text as head from ${this.tables.events} e order by e.tx desc, e.position desc limit 1`,
    );
    return rows[0] ? { value: rows[0].head } : null;
  }
}
