import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { BatchPools } from './batch-pools';
import { type ClaimedDelivery, type NewDelivery, traceparentOf } from './delivery';
import { columnsOf, FRESH_DELIVERIES, NEW_COLUMNS, positionColumns, TAKE_OVER_UNLEASED } from './delivery-keys';

/** Every statement that makes delivery rows: each (domain, event id) gets one, whoever inserts it first. */
@Injectable()
export class NewDeliveries {
  constructor(private readonly pools: BatchPools) {}

  /**
   * Inserts one delivery per event in a single statement, due `holdMs` from now. A (domain, event
   * id) seen before is ignored, so a re-consumed Kafka message never makes a second delivery.
   * Returns how many were new.
   */
  async insertMany(deliveries: NewDelivery[], holdMs = 0): Promise<number> {
    if (deliveries.length === 0) return 0;
    const { rowCount } = await this.pools.main.query(
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
    const written = await this.takeOverUnleased(leased, owner, leaseMs);
    // A row whose insert was still running when the statement began is not in its snapshot: the key
    // made the statement wait, then yield, and the take-over missed the row. It is committed now.
    const missed = leased.filter((r) => !written.has(r.id));
    for (const id of await this.takeOverUnleased(missed, owner, leaseMs)) written.add(id);
    return written;
  }

  /** One run of TAKE_OVER_UNLEASED: the ids written as inserted or taken-over rows. */
  private async takeOverUnleased(leased: ClaimedDelivery[], owner: string, leaseMs: number): Promise<Set<string>> {
    if (leased.length === 0) return new Set();
    const { rows } = await this.pools.for(leased.length).query<{ id: string }>(
      TAKE_OVER_UNLEASED,
      [
        leased.map((r) => r.id), leased.map((r) => r.domain), leased.map((r) => r.eventId), leased.map((r) => r.eventName),
        leased.map((r) => r.body), leased.map((r) => r.leaseToken), owner, leaseMs, ...positionColumns(leased), leased.map((r) => r.traceparent ?? null),
      ],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Inserts pending deliveries already leased to `owner` for `leaseMs`, as DeliveryLeases.claimDue would
   * lease them: the consumer hands them straight to its scheduler, with no claim round trip. Like
   * {@link insertMany}, an event seen before is ignored; returns the deliveries that were new.
   */
  async insertLeased(deliveries: NewDelivery[], owner: string, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (deliveries.length === 0) return [];
    const { rows } = await this.pools.for(deliveries.length).query<{ id: string; event_id: string; domain: string; lease_token: string }>(
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
   * Stores a page of a backfill's events (read again from the topic, in its order) that the domain
   * has no delivery for, spread out at `perSecond` as DeliveryLog.recover does: the k-th new one is
   * due k / perSecond seconds after `pacedFrom` (the job's previous page's last), behind live
   * deliveries. Runs on `db`, the job's transaction. Returns how many were new.
   */
  async insertBackfill(deliveries: NewDelivery[], perSecond: number, backfillId: string, pacedFrom: Date, db: Pick<PoolClient, 'query'>): Promise<number> {
    if (deliveries.length === 0) return 0;
    const { rowCount } = await db.query(
      `with ${FRESH_DELIVERIES},
       numbered as (select *, row_number() over (order by n) - 1 as k from fresh)
       insert into webhook_deliveries (id, ${NEW_COLUMNS}, next_attempt_at, backfill_id)
       select id, ${NEW_COLUMNS}, $11::timestamptz + make_interval(secs => k / $9::float8), $10 from numbered order by n`,
      [...columnsOf(deliveries), perSecond, backfillId, pacedFrom],
    );
    return rowCount ?? 0;
  }
}
