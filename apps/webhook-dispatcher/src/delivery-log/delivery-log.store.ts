import type { Pool } from 'pg';
import type { DeliveryStatus } from '@tailsync/contracts';

export interface DeliveryRow {
  id: string;
  seq: string;
  event_id: string;
  event_name: string;
  status: DeliveryStatus;
  created_at: Date;
  recovery_id: string | null;
  backfill_id: string | null;
}

/** Filters of the delivery log. */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventId?: string;
  /** Created at or after. */
  since?: Date;
  /** Created before. */
  until?: Date;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  retry_after_ms: number | null;
}

/** The delivery log as the gateway's calls read and change it: a domain's deliveries, redelivery, recovery. */
export class DeliveryLog {
  constructor(private readonly pool: Pool) {}

  /** Deliveries of a domain, newest first, after the `beforeSeq` cursor position. */
  async list(domain: string, filter: DeliveryFilter, limit: number, beforeSeq: string | undefined): Promise<{ deliveries: DeliveryRow[]; attempts: AttemptRow[] }> {
    const { rows: deliveries } = await this.pool.query<DeliveryRow>(
      // (`d.seq` in the order: a bare `seq` would name the text output column and sort 99 after 100.)
      `select d.id, d.seq::text as seq, d.event_id::text as event_id, d.event_name, d.status, d.created_at, d.recovery_id::text as recovery_id,
              d.backfill_id::text as backfill_id
         from webhook_deliveries d
        where d.domain = $1 and ($2::text is null or d.status = $2) and ($3::bigint is null or d.seq < $3)
          and ($5::uuid is null or d.id = (select k.id from webhook_delivery_keys k where k.domain = $1 and k.event_id = $5)) and ($6::timestamptz is null or d.created_at >= $6) and ($7::timestamptz is null or d.created_at < $7)
        order by d.seq desc
        limit $4`,
      [domain, filter.status ?? null, beforeSeq ?? null, limit, filter.eventId ?? null, filter.since ?? null, filter.until ?? null],
    );
    if (deliveries.length === 0) return { deliveries, attempts: [] };
    const { rows: attempts } = await this.pool.query<AttemptRow>(
      `select delivery_id, attempt, at, status_code, duration_ms, error, retry_after_ms
         from webhook_attempts where delivery_id = any($1::uuid[]) order by delivery_id, attempt`,
      [deliveries.map((d) => d.id)],
    );
    return { deliveries, attempts };
  }

  /**
   * Starts a failed delivery of `domain` again: pending now, a new round of the retry schedule.
   * `not-found` for an unknown id or another domain's; `conflict` when it is not failed.
   */
  async redeliver(domain: string, id: string): Promise<'ok' | 'not-found' | 'conflict'> {
    const { rows } = await this.pool.query<{ outcome: string }>(
      `with target as (
         select id, status from webhook_deliveries where id = $1 and domain = $2 for update
       ),
       updated as (
         update webhook_deliveries d
            set status = 'pending', round_start = d.attempts, next_attempt_at = now(),
                lease_owner = null, lease_token = null, lease_until = null, updated_at = now()
           from target t where d.id = t.id and t.status = 'failed'
          returning d.id
       )
       select case when exists (select 1 from updated) then 'ok'
                   when exists (select 1 from target) then 'conflict'
                   else 'not-found' end as outcome`,
      [id, domain],
    );
    return rows[0].outcome as 'ok' | 'not-found' | 'conflict';
  }

  /**
   * Starts every failed or skipped delivery of `domain` created in [since, until) again, as
   * {@link redeliver} does (a new round of attempts, numbered on), oldest first and spread out at
   * `perSecond`: the k-th is due k / perSecond seconds from now, so live deliveries (due at once)
   * are claimed first and a long backlog never starves them. Returns how many were started.
   */
  async recover(domain: string, window: { since: Date; until: Date }, perSecond: number, recoveryId: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `with picked as (
         select id, row_number() over (order by created_at, seq) - 1 as k
           from webhook_deliveries
          where domain = $1 and status in ('failed', 'skipped') and created_at >= $2 and created_at < $3
       )
       update webhook_deliveries d
          set status = 'pending', round_start = d.attempts, next_attempt_at = now() + make_interval(secs => p.k / $4::float8),
              recovery_id = $5, lease_owner = null, lease_token = null, lease_until = null, updated_at = now()
         from picked p
        where d.id = p.id and d.status in ('failed', 'skipped')`,
      [domain, window.since, window.until, perSecond, recoveryId],
    );
    return rowCount ?? 0;
  }
}
