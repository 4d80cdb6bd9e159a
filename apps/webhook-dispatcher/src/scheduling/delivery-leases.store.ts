import type { Pool } from 'pg';
import { type ClaimedDelivery, traceparentOf } from '../delivery-log/delivery';

/**
 * A fifo domain's deliveries in their order on the input topic (those without a position last, as
 * made): live ones first, then backfilled ones (a backfill goes behind live events).
 */
const FIFO_ORDER = '(d.backfill_id is not null), d.source_partition, d.source_offset, d.seq';

/** Leases of due deliveries: which copy attempts which delivery next, and for how long. */
export class DeliveryLeases {
  constructor(private readonly pool: Pool) {}

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

  async pendingCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`select count(*)::text as n from webhook_deliveries where status = 'pending'`);
    return Number(rows[0].n);
  }
}
