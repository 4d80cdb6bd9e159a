import type { Pool } from 'pg';
import type { FeedPosition } from './domain/feed-iterator';

/** One event of a domain as the delivery log keeps it: the exact callback body and where it is in the feed. */
export interface FeedEvent {
  eventId: string;
  eventName: string;
  body: string;
  position: FeedPosition;
}

/**
 * The polling door's reads of the delivery log: a domain's deliveries in the order their writing
 * transactions began (migration 20261128100100000_event-feed-order says why), only those whose
 * transaction is older than every one still running, so no later commit lands behind a reader.
 */
export class EventFeed {
  constructor(private readonly pool: Pool) {}

  /** Up to `limit` events of `domain` after `after`, written at or after `since`. */
  async read(domain: string, after: FeedPosition, since: Date, limit: number): Promise<FeedEvent[]> {
    const { rows } = await this.pool.query<{ event_id: string; event_name: string; body: string; xact: string; seq: string }>(
      `select d.event_id::text as event_id, d.event_name, d.body, coalesce(d.writer_xact, '0'::xid8)::text as xact, d.seq::text as seq
         from webhook_deliveries d
        where d.domain = $1
          and (coalesce(d.writer_xact, '0'::xid8), d.seq) > ($2::xid8, $3::bigint)
          and coalesce(d.writer_xact, '0'::xid8) < pg_snapshot_xmin(pg_current_snapshot())
          and d.created_at >= $4
        order by coalesce(d.writer_xact, '0'::xid8), d.seq
        limit $5`,
      [domain, after.xact, after.seq, since, limit],
    );
    return rows.map((r) => ({ eventId: r.event_id, eventName: r.event_name, body: r.body, position: { xact: r.xact, seq: r.seq } }));
  }
}
