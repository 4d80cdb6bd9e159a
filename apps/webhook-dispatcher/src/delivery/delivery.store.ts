import type { Pool } from 'pg';
import type { DeliveryStatus } from '@tailsync/contracts';
import { FRESH_DELIVERIES, NEW_COLUMNS, TAKE_OVER_UNLEASED } from './delivery-keys';

/** Where an event is on the input topic: a fifo domain's deliveries are attempted in this order. */
export interface TopicPosition {
  partition: number;
  offset: string;
}

export interface NewDelivery {
  domain: string;
  eventId: string;
  eventName: string;
  body: string;
  /** `skipped` records an event consumed while the subscription is disabled (never sent). Default `pending`. */
  status?: 'pending' | 'skipped';
  /** Absent for a delivery made without the topic (specs); it then comes after those with one. */
  position?: TopicPosition;
  /** The event message's W3C `traceparent`: its attempts belong to that trace, their callbacks carry it. */
  traceparent?: string;
}

/** A delivery leased to this copy for its next attempt. */
export interface ClaimedDelivery {
  id: string;
  domain: string;
  eventId: string;
  eventName: string;
  body: string;
  /** The event message's W3C `traceparent`, when it had one. */
  traceparent?: string;
  /** Attempts made so far (the next one is `attempts + 1`). */
  attempts: number;
  /** Attempts made before the current round (0, or the count when it was last redelivered). */
  roundStart: number;
  leaseToken: string;
  /** Carried into the row by a lease written behind its first attempt (WriteBehindLeases). */
  position?: TopicPosition;
}

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

/** The statement parameters of new deliveries, column by column (their `unnest`: NEW_ROWS in delivery-keys.ts). */
function columnsOf(deliveries: NewDelivery[]): [string[], string[], string[], string[], string[], (number | null)[], (string | null)[], (string | null)[]] {
  return [
    deliveries.map((d) => d.domain), deliveries.map((d) => d.eventId), deliveries.map((d) => d.eventName), deliveries.map((d) => d.body),
    deliveries.map((d) => d.status ?? 'pending'), ...positionColumns(deliveries), deliveries.map((d) => d.traceparent ?? null),
  ];
}

const positionColumns = (rows: { position?: TopicPosition }[]): [(number | null)[], (string | null)[]] =>
  [rows.map((r) => r.position?.partition ?? null), rows.map((r) => r.position?.offset ?? null)];

/**
 * A fifo domain's deliveries in their order on the input topic (those without a position last, as
 * made): live ones first, then backfilled ones (a backfill goes behind live events).
 */
const FIFO_ORDER = '(d.backfill_id is not null), d.source_partition, d.source_offset, d.seq';

/** A row's `traceparent` as a ClaimedDelivery holds it (absent when the event had none). */
function traceparentOf(value: string | null | undefined): { traceparent?: string } {
  return value ? { traceparent: value } : {};
}

/** The largest batch written with a plan made once (see the constructor); a burst's batches are planned for their values. */
export const PLANNED_ONCE_MAX_BATCH = 32;

/** Deliveries and their attempts in PostgreSQL: the durable retry queue. */
export class DeliveryStore {
  /**
   * @param plannedOncePool runs the steady path's writes, {@link insertLeased} and
   *   {@link recordAttempts}, for batches of up to {@link PLANNED_ONCE_MAX_BATCH} rows: connections
   *   that plan each statement once (`createPool(url, max, 'once')`). At a steady rate a consumed
   *   batch is an event or two and a record batch a dozen attempts, and planning each statement
   *   every time cost PostgreSQL as much as running it. Larger batches are planned for their
   *   values, as on the main pool.
   */
  constructor(
    private readonly pool: Pool,
    private readonly health: HealthPolicy = DEFAULT_HEALTH_POLICY,
    private readonly plannedOncePool: Pool = pool,
  ) {}

  private poolFor(rows: number): Pool {
    return rows <= PLANNED_ONCE_MAX_BATCH ? this.plannedOncePool : this.pool;
  }

  /**
   * Inserts one delivery per event in a single statement, due `holdMs` from now. A (domain, event
   * id) seen before is ignored, so a re-consumed Kafka message never makes a second delivery.
   * Returns how many were new.
   */
  async insertMany(deliveries: NewDelivery[], holdMs = 0): Promise<number> {
    if (deliveries.length === 0) return 0;
    const { rowCount } = await this.pool.query(
      `with ${FRESH_DELIVERIES}
       insert into webhook_deliveries (id, ${NEW_COLUMNS}, next_attempt_at)
       select id, ${NEW_COLUMNS}, now() + make_interval(secs => $9::float8 / 1000) from fresh order by n`,
      [...columnsOf(deliveries), holdMs],
    );
    return rowCount ?? 0;
  }

  /**
   * Writes deliveries whose first attempt has started already (WriteBehindLeases), leased to
   * `owner` under their own ids and lease tokens. A row of the same event that nobody has leased
   * or attempted yet (an event the partition's next owner read again and holds back) is taken over:
   * it becomes this row, so the attempt under way is the only one. Returns the ids written; the
   * others' events belong to a row someone else leased or attempted.
   */
  async writeLeased(leased: ClaimedDelivery[], owner: string, leaseMs: number): Promise<Set<string>> {
    if (leased.length === 0) return new Set();
    const { rows } = await this.poolFor(leased.length).query<{ id: string }>(
      TAKE_OVER_UNLEASED,
      [
        leased.map((r) => r.id), leased.map((r) => r.domain), leased.map((r) => r.eventId), leased.map((r) => r.eventName),
        leased.map((r) => r.body), leased.map((r) => r.leaseToken), owner, leaseMs, ...positionColumns(leased), leased.map((r) => r.traceparent ?? null),
      ],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Inserts pending deliveries already leased to `owner` for `leaseMs`, as {@link claimDue} would
   * lease them: the consumer hands them straight to its scheduler, with no claim round trip. Like
   * {@link insertMany}, an event seen before is ignored; returns the deliveries that were new.
   */
  async insertLeased(deliveries: NewDelivery[], owner: string, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (deliveries.length === 0) return [];
    const { rows } = await this.poolFor(deliveries.length).query<{ id: string; event_id: string; domain: string; lease_token: string }>(
      `with ${FRESH_DELIVERIES}
       insert into webhook_deliveries (id, ${NEW_COLUMNS}, lease_owner, lease_token, lease_until)
       select id, ${NEW_COLUMNS}, $9, gen_random_uuid(), clock_timestamp() + make_interval(secs => $10::float8 / 1000) from fresh order by n
       returning id, event_id::text as event_id, domain, lease_token`,
      [...columnsOf(deliveries), owner, leaseMs],
    );
    const byEvent = new Map(deliveries.map((d) => [`${d.domain}\u0000${d.eventId.toLowerCase()}`, d]));
    return rows.map((r) => {
      const d = byEvent.get(`${r.domain}\u0000${r.event_id}`)!;
      return {
        id: r.id, domain: d.domain, eventId: r.event_id, eventName: d.eventName, body: d.body, ...traceparentOf(d.traceparent),
        attempts: 0, roundStart: 0, leaseToken: r.lease_token,
      };
    });
  }

  /**
   * Leases due pending deliveries to `owner` for `leaseMs`: at most `limit` in all and, per domain,
   * at most `perDomain` (or the domain's entry in `domainRoom`, the slots it has left here; a domain
   * with no room left is not looked at). Rows another copy holds are skipped (`for update skip
   * locked`, then a live lease), so two copies never run the same attempt; a lease of a crashed copy
   * expires and the attempt is run again.
   *
   * Fair between domains however long one domain's backlog is: the domains with pending rows are
   * visited round-robin (a skip scan of the (domain, next_attempt_at) index, at most `maxDomains`
   * per claim, starting after `after`), and each takes its oldest due rows up to its room.
   * Returns the deliveries, the last domain visited (the next claim's `after`) and whether a domain
   * with pending rows was passed over for lack of room (`roomless`: more may be due once it has some).
   *
   * A `fifo` subscription's domain gives at most its head: the pending delivery earliest on the topic,
   * when it is due and nobody holds it. So each event is attempted only once every earlier one is
   * delivered, skipped or failed, whichever copy runs it.
   */
  async claimDue(
    owner: string, leaseMs: number, limit: number, perDomain: number, domainRoom: Map<string, number>,
    after = '', maxDomains = 200,
  ): Promise<ClaimedDelivery[] & { lastDomain?: string; roomless?: boolean }> {
    const full = new Set([...domainRoom].filter(([, slots]) => slots <= 0).map(([domain]) => domain));
    let roomless = false;
    const withRoom = (listed: string[]) => {
      roomless ||= listed.some((d) => full.has(d));
      return listed.filter((d) => !full.has(d));
    };
    let domains = withRoom(await this.pendingDomains(after, maxDomains + full.size));
    if (domains.length < maxDomains && after !== '') {
      const wrapped = withRoom(await this.pendingDomains('', maxDomains + full.size)).filter((d) => d <= after);
      domains = [...domains, ...wrapped];
    }
    domains = domains.slice(0, maxDomains);
    const result: ClaimedDelivery[] & { lastDomain?: string; roomless?: boolean } = [];
    result.roomless = roomless;
    if (domains.length === 0) return result;
    result.lastDomain = domains[domains.length - 1];
    const slots = domains.map((d) => Math.min(domainRoom.get(d) ?? perDomain, perDomain, limit));
    const { rows } = await this.pool.query<{
      id: string; domain: string; event_id: string; event_name: string; body: string; traceparent: string | null; attempts: number; round_start: number;
      lease_token: string;
    }>(
      `with domains as (
         select r.domain, r.slots, r.n, coalesce(s.ordering, 'none') = 'fifo' as fifo
           from unnest($4::text[], $5::int[]) with ordinality as r(domain, slots, n)
           left join webhook_subscriptions s on s.domain = r.domain
       ),
       picked as (
         select c.id
           from domains r
           cross join lateral (
             select u.id from (
               select d.id from webhook_deliveries d
                where not r.fifo and d.domain = r.domain and d.status = 'pending' and d.next_attempt_at <= now()
                  and (d.lease_until is null or d.lease_until < now())
                order by d.next_attempt_at
                limit r.slots
                for update skip locked
             ) u
             union all
             -- A fifo domain: only its pending delivery earliest on the topic, once due and not leased
             -- (not skipped when locked: the update below waits for the row and checks it again).
             select h.id from (
               select d.id, d.next_attempt_at, d.lease_until from webhook_deliveries d
                where r.fifo and d.domain = r.domain and d.status = 'pending'
                order by ${FIFO_ORDER}
                limit 1
             ) h
              where h.next_attempt_at <= now() and (h.lease_until is null or h.lease_until < now())
           ) c
          limit $2
       )
       update webhook_deliveries d
          set lease_owner = $1, lease_token = gen_random_uuid(), lease_until = clock_timestamp() + make_interval(secs => $3::float8 / 1000)
        where d.id = any (array(select id from picked)) and d.status = 'pending' and (d.lease_until is null or d.lease_until < now())
       returning d.id, d.domain, d.event_id, d.event_name, d.body, d.traceparent, d.attempts, d.round_start, d.lease_token`,
      [owner, limit, leaseMs, domains, slots],
    );
    for (const r of rows) {
      result.push({
        id: r.id,
        domain: r.domain,
        eventId: r.event_id,
        eventName: r.event_name,
        body: r.body,
        ...traceparentOf(r.traceparent),
        attempts: r.attempts,
        roundStart: r.round_start,
        leaseToken: r.lease_token,
      });
    }
    return result;
  }

  /** Up to `max` domains having pending deliveries, in order, after `after` (a skip scan of the index). */
  private async pendingDomains(after: string, max: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ domain: string }>(
      `with recursive doms(domain) as (
         (select domain from webhook_deliveries where status = 'pending' and domain > $1 order by domain limit 1)
         union all
         select (select d.domain from webhook_deliveries d where d.status = 'pending' and d.domain > doms.domain order by d.domain limit 1)
           from doms where doms.domain is not null
       )
       select domain from doms where domain is not null limit $2`,
      [after, max],
    );
    return rows.map((r) => r.domain);
  }

  /** Gives back leases this copy will not use (e.g. on shutdown), so another copy runs them now. */
  async release(leases: { id: string; leaseToken: string }[]): Promise<void> {
    if (leases.length === 0) return;
    await this.pool.query(
      `update webhook_deliveries d set lease_owner = null, lease_token = null, lease_until = null
         from unnest($1::uuid[], $2::uuid[]) as l(id, token)
        where d.id = l.id and d.lease_token = l.token`,
      [leases.map((l) => l.id), leases.map((l) => l.leaseToken)],
    );
  }

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
    const { rows } = await this.poolFor(records.length).query<{ kind: 'recorded' | 'disabled'; key: string; url: string | null }>(
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

  /**
   * Stores a backfill's events (read again from the topic, in its order) that the domain has no
   * delivery for, spread out at `perSecond` as {@link recover} does: the k-th new one is due
   * k / perSecond seconds from now, behind live deliveries. Returns how many were new.
   */
  async insertBackfill(deliveries: NewDelivery[], perSecond: number, backfillId: string): Promise<number> {
    if (deliveries.length === 0) return 0;
    const { rowCount } = await this.pool.query(
      `with ${FRESH_DELIVERIES},
       numbered as (select *, row_number() over (order by n) - 1 as k from fresh)
       insert into webhook_deliveries (id, ${NEW_COLUMNS}, next_attempt_at, backfill_id)
       select id, ${NEW_COLUMNS}, now() + make_interval(secs => k / $9::float8), $10 from numbered order by n`,
      [...columnsOf(deliveries), perSecond, backfillId],
    );
    return rowCount ?? 0;
  }

  async pendingCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`select count(*)::text as n from webhook_deliveries where status = 'pending'`);
    return Number(rows[0].n);
  }
}
