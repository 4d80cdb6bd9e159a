import type { BatchPools } from '../delivery-log/batch-pools';

/** What an attempt of a claimed delivery came to, and the state it leaves the delivery in. */
export interface AttemptRecord {
  id: string;
  leaseToken: string;
  attempt: number;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  retryAfterMs: number | null;
  next: { status: 'delivered' | 'failed' } | { status: 'pending'; at: Date };
}

/** When a subscription whose deliveries keep failing is disabled (`WEBHOOK_DISABLE_AFTER_*`). */
export interface HealthPolicy {
  /** The run of failed deliveries is at least this long… */
  disableAfterFailures: number;
  /** …and its first delivery was created at least this many hours ago. */
  disableAfterHours: number;
}

export const DEFAULT_HEALTH_POLICY: HealthPolicy = { disableAfterFailures: 20, disableAfterHours: 120 };

export interface RecordedAttempts {
  /** Ids of the deliveries whose attempt was recorded (the others' lease had passed to another copy). */
  recorded: Set<string>;
  /** Subscriptions the recorded outcomes disabled (`failing`). */
  disabled: { domain: string; url: string }[];
}

/** Attempts' outcomes, recorded with the state they leave their delivery and its subscription's health in. */
export class AttemptRecords {
  constructor(
    private readonly pools: BatchPools,
    private readonly health: HealthPolicy = DEFAULT_HEALTH_POLICY,
  ) {}

  /**
   * Records attempts and the state they lead to, in one statement (one transaction): a record whose
   * lease is no longer held (it expired and another copy took the delivery over) changes nothing.
   *
   * The same statement keeps each subscription's health: the last delivered and failed deliveries,
   * the run of failed deliveries (reset by a delivered one) and when its first delivery was created;
   * a subscription whose run reaches the policy's count and age is disabled (`failing`). Computed
   * from the row's current values under its lock, so concurrent copies add up correctly.
   * Returns the ids recorded and the subscriptions this disabled.
   */
  async recordAttempts(records: AttemptRecord[]): Promise<RecordedAttempts> {
    if (records.length === 0) return { recorded: new Set(), disabled: [] };
    const inARow = 'case when a.any_delivered then a.failed_after else s.failed_in_a_row + a.failed_after end';
    const since = 'case when a.any_delivered then a.first_failed_created else coalesce(s.failing_since, a.first_failed_created) end';
    const failing = `s.status = 'active' and ${inARow} >= $11 and ${since} <= now() - make_interval(secs => $12::float8)`;
    const { rows } = await this.pools.for(records.length).query<{ kind: 'recorded' | 'disabled'; key: string; url: string | null }>(
      `with input as (
         select * from unnest($1::uuid[], $2::uuid[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::text[], $8::text[], $9::timestamptz[], $10::int[])
           as i(id, token, attempt, at, status_code, duration_ms, error, status, next_at, retry_after_ms)
       ),
       updated as (
         update webhook_deliveries d
            set status = i.status, attempts = i.attempt, next_attempt_at = coalesce(i.next_at, d.next_attempt_at),
                lease_owner = null, lease_token = null, lease_until = null, updated_at = now()
           from input i
          where d.id = i.id and d.lease_token = i.token
          returning d.id, d.domain, d.created_at
       ),
       ended as (
         select u.domain, u.created_at, i.status, i.at from input i join updated u on u.id = i.id where i.status in ('delivered', 'failed')
       ),
       last_delivered as (select domain, max(at) as at from ended where status = 'delivered' group by domain),
       outcomes as (
         select e.domain,
                max(e.at) filter (where e.status = 'delivered') as success_at,
                max(e.at) filter (where e.status = 'failed') as failure_at,
                bool_or(e.status = 'delivered') as any_delivered,
                count(*) filter (where e.status = 'failed' and (l.at is null or e.at > l.at))::int as failed_after,
                min(e.created_at) filter (where e.status = 'failed' and (l.at is null or e.at > l.at)) as first_failed_created
           from ended e left join last_delivered l on l.domain = e.domain
          group by e.domain
       ),
       health as (
         update webhook_subscriptions s
            set last_success_at = greatest(s.last_success_at, a.success_at),
                last_failure_at = greatest(s.last_failure_at, a.failure_at),
                failed_in_a_row = ${inARow},
                failing_since = ${since},
                status = case when ${failing} then 'disabled' else s.status end,
                disabled_reason = case when ${failing} then 'failing' else s.disabled_reason end,
                disabled_at = case when ${failing} then now() else s.disabled_at end
           from outcomes a
          where s.domain = a.domain
          returning s.domain, s.url, (s.disabled_reason = 'failing' and s.disabled_at = now()) as disabled_now
       ),
       attempts as (
         insert into webhook_attempts (delivery_id, delivery_created_at, attempt, at, status_code, duration_ms, error, retry_after_ms)
         select i.id, u.created_at, i.attempt, i.at, i.status_code, i.duration_ms, i.error, i.retry_after_ms from input i join updated u on u.id = i.id
         on conflict (delivery_id, delivery_created_at, attempt) do nothing
         returning delivery_id
       )
       select 'recorded' as kind, delivery_id::text as key, null as url from attempts
       union all
       select 'disabled', domain, url from health where disabled_now`,
      [
        records.map((r) => r.id),
        records.map((r) => r.leaseToken),
        records.map((r) => r.attempt),
        records.map((r) => r.at),
        records.map((r) => r.statusCode),
        records.map((r) => r.durationMs),
        records.map((r) => r.error),
        records.map((r) => r.next.status),
        records.map((r) => (r.next.status === 'pending' ? r.next.at : null)),
        records.map((r) => r.retryAfterMs),
        this.health.disableAfterFailures,
        this.health.disableAfterHours * 3600,
      ],
    );
    return {
      recorded: new Set(rows.filter((r) => r.kind === 'recorded').map((r) => r.key)),
      disabled: rows.filter((r) => r.kind === 'disabled').map((r) => ({ domain: r.key, url: r.url ?? '' })),
    };
  }
}
