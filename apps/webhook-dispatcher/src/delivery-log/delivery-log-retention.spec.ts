import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { deliveryStores, isolatedDatabase, testConfig, uniqueDomain } from '../testing/harness';
import { DeliveryLogPartitions, type LogWeek } from './delivery-log-partitions';
import { DeliveryLogRetention } from './delivery-log-retention';
import { DeliveryMetrics } from './delivery.metrics';
import type { NewDelivery } from './delivery';

const EVT = 'Product.RiskAssessmentExecuted';
const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('delivery-log retention: whole weeks dropped by the leader (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let pool: Pool;
  let store: ReturnType<typeof deliveryStores>;
  const domain = uniqueDomain('ret');
  const metrics = new DeliveryMetrics();

  beforeAll(async () => {
    db = await isolatedDatabase('retention');
    pool = db.pool;
    store = deliveryStores(pool);
  });
  afterAll(() => db.drop());

  /** `n` deliveries of `domain` made `at`, ending `status`, each with one attempt (as if made then). */
  async function madeAt(at: Date, status: 'pending' | 'delivered' | 'failed', n: number): Promise<NewDelivery[]> {
    const made = Array.from({ length: n }, (): NewDelivery => {
      const eventId = randomUUID();
      return { domain, eventId, eventName: EVT, body: JSON.stringify({ eventId }) };
    });
    expect(await store.newDeliveries.insertMany(made)).toBe(n);
    const events = made.map((d) => d.eventId);
    // moving created_at moves each row to the partition of its week
    await pool.query(
      `with moved as (update webhook_deliveries set created_at = $1, status = $2, attempts = 1 where event_id = any($3::uuid[]) returning id, created_at)
       insert into webhook_attempts (delivery_id, delivery_created_at, attempt, at, status_code, duration_ms) select id, created_at, 1, created_at, 500, 5 from moved`,
      [at, status, events],
    );
    await pool.query('update webhook_delivery_keys set created_at = $1 where event_id = any($2::uuid[])', [at, events]);
    return made;
  }

  const count = async (table: string) => (await pool.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0].n;
  const exists = async (name: string) => (await pool.query<{ r: string | null }>('select to_regclass($1)::text as r', [name])).rows[0].r !== null;

  it('refuses a retention shorter than the recovery window, with a message saying why', () => {
    expect(() => testConfig({ WEBHOOK_LOG_RETENTION_DAYS: '30' })).toThrow(/WEBHOOK_LOG_RETENTION_DAYS must be at least 31: a recovery may restart deliveries up to 31 days old/);
    expect(testConfig().WEBHOOK_LOG_RETENTION_DAYS).toBe(35);
    expect(testConfig({ WEBHOOK_LOG_RETENTION_DAYS: '31' }).WEBHOOK_LOG_RETENTION_DAYS).toBe(31);
  });

  it('drops weeks past retention whole, keeps a week holding a pending delivery, and leaves the 31-day window alone', async () => {
    const partitions = new DeliveryLogPartitions(pool);
    const weeks = await partitions.weeks();
    // the migration's first partition (everything before next Monday) and four weeks ahead
    expect(weeks).toHaveLength(5);
    expect(weeks.map((w) => w.fromStart)).toEqual([true, false, false, false, false]);
    const [first, w1, w2, w3, w4] = weeks;
    const middle = (w: LogWeek) => new Date(w.end.getTime() - 3.5 * DAY);

    const inFirst = await madeAt(new Date(), 'delivered', 3);
    const inW1 = [...(await madeAt(middle(w1), 'delivered', 2)), ...(await madeAt(middle(w1), 'failed', 2))];
    const [stillPending] = await madeAt(middle(w2), 'pending', 1);
    const inW2 = [stillPending, ...(await madeAt(middle(w2), 'delivered', 1))];
    // w3 ends an hour before "now": within the 31-day recovery window
    const now = new Date(w2.end.getTime() + 35 * DAY + HOUR);
    const failedInWindow = await madeAt(new Date(w3.end.getTime() - HOUR), 'failed', 3);
    const inW4 = await madeAt(middle(w4), 'delivered', 1);
    expect(await count('webhook_deliveries')).toBe(13);

    const retention = new DeliveryLogRetention(pool, metrics, { retentionDays: 35 });
    const turn = await retention.prune(now);

    // the first partition and w1 ended 35 days ago or more: gone whole, attempts with them
    expect(turn).toEqual({ dropped: [first.suffix, w1.suffix], held: [w2.suffix], keysDeleted: inFirst.length + inW1.length });
    for (const gone of [first, w1]) {
      expect(await exists(`webhook_deliveries_${gone.suffix}`)).toBe(false);
      expect(await exists(`webhook_attempts_${gone.suffix}`)).toBe(false);
    }
    expect(await exists('webhook_deliveries_default')).toBe(true);
    expect(await count('webhook_deliveries')).toBe(inW2.length + failedInWindow.length + inW4.length);
    expect(await count('webhook_attempts')).toBe(inW2.length + failedInWindow.length + inW4.length);
    expect(await count('webhook_delivery_keys')).toBe(inW2.length + failedInWindow.length + inW4.length);
    // the weeks kept, and the four after the week of "now" (the days between go to the default partition)
    const kept = await partitions.weeks();
    expect(kept.slice(0, 3).map((w) => w.suffix)).toEqual([w2, w3, w4].map((w) => w.suffix));
    expect(kept).toHaveLength(3 + 5);
    expect((await metrics.logPartitions.get()).values[0].value).toBe(kept.length);
    expect((await metrics.logOldestWeekEnd.get()).values[0].value).toBe((now.getTime() - w2.end.getTime()) / 1000);

    // the delivery log shows what is kept, attempts included
    const { deliveries, attempts } = await store.log.list(domain, {}, 100, undefined);
    expect(deliveries.map((d) => d.event_id).sort()).toEqual([...inW2, ...failedInWindow, ...inW4].map((d) => d.eventId).sort());
    expect(attempts).toHaveLength(deliveries.length);
    expect((await store.log.list(domain, { eventId: failedInWindow[0].eventId }, 10, undefined)).deliveries).toHaveLength(1);

    // a recovery over the 31 days before "now" finds every failed delivery in them
    expect(await store.log.recover(domain, { since: new Date(now.getTime() - 31 * DAY), until: now }, 50, randomUUID())).toBe(failedInWindow.length);

    // re-consumed events of kept weeks make no second delivery; one of a dropped week is an event never
    // seen (stored now: in the default partition, as this spec's "now" is weeks ahead of the clock)
    expect(await store.newDeliveries.insertMany([...inW2, ...failedInWindow, ...inW4])).toBe(0);
    expect(await store.newDeliveries.insertMany([inW1[0]])).toBe(1);

    // once its pending delivery ends, the held week goes at the next turn
    await pool.query(`update webhook_deliveries set status = 'delivered' where event_id = $1`, [stillPending.eventId]);
    expect((await retention.prune(now)).dropped).toEqual([w2.suffix]);
    expect((await store.log.list(domain, {}, 100, undefined)).deliveries.map((d) => d.event_id).sort())
      .toEqual([...failedInWindow, ...inW4, inW1[0]].map((d) => d.eventId).sort());
    expect((await partitions.weeks()).slice(0, 2).map((w) => w.suffix)).toEqual([w3, w4].map((w) => w.suffix));
  });
});
