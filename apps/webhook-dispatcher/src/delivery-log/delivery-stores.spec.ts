import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { migrateDispatcherTables } from '../store/migrate';
import { deliveryStores, eventually, isolatedDatabase, uniqueDomain } from '../testing/harness';
import { PLANNED_ONCE_MAX_BATCH } from './batch-pools';
import type { NewDelivery } from './delivery';

const EVT = 'Product.RiskAssessmentExecuted';
const delivery = (domain: string, eventId = randomUUID()): NewDelivery => ({ domain, eventId, eventName: EVT, body: JSON.stringify({ eventId }) });

describe('the delivery tables\' stores: a delivery made, leased, attempted, listed (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let pool: Pool;
  let store: ReturnType<typeof deliveryStores>;

  beforeAll(async () => {
    db = await isolatedDatabase('store');
    pool = db.pool;
    store = deliveryStores(pool);
  });
  afterAll(() => db.drop());
  beforeEach(() => pool.query('truncate webhook_deliveries, webhook_attempts, webhook_delivery_keys'));

  it('migrates idempotently, several copies at once', async () => {
    await Promise.all([migrateDispatcherTables(pool), migrateDispatcherTables(pool), migrateDispatcherTables(pool)]);
  });

  it('inserts a batch in one statement and never twice for the same (domain, event id)', async () => {
    const a = delivery('acme');
    const b = delivery('acme');
    expect(await store.newDeliveries.insertMany([a, b, a])).toBe(2);
    expect(await store.newDeliveries.insertMany([a, b, delivery('acme')])).toBe(1);
    // the same event id in another domain is another delivery
    expect(await store.newDeliveries.insertMany([{ ...a, domain: 'globex' }])).toBe(1);
    const { rows } = await pool.query('select count(*)::int as n from webhook_deliveries');
    expect(rows[0].n).toBe(4);
  });

  it('inserts deliveries leased to their inserter: returned ready to attempt, claimable by others only once the lease runs out', async () => {
    const a = delivery('acme');
    const b = delivery('acme');
    const leased = await store.newDeliveries.insertLeased([a, b], 'consumer-copy', 300);
    expect(leased).toEqual([a, b].map((d) => ({
      id: expect.any(String), domain: 'acme', eventId: d.eventId, eventName: EVT, body: d.body, attempts: 0, roundStart: 0, leaseToken: expect.any(String),
    })));
    // an event seen before makes no second delivery, leased or not
    expect(await store.newDeliveries.insertLeased([a], 'consumer-copy', 300)).toEqual([]);
    expect(await store.newDeliveries.insertMany([b])).toBe(0);
    expect(await store.leases.claimDue('other-copy', 10_000, 10, 10, new Map())).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 350));
    // the inserting copy died before its attempts: another copy takes them over
    const taken = await store.leases.claimDue('other-copy', 10_000, 10, 10, new Map());
    expect(taken.map((t) => t.id).sort()).toEqual(leased.map((l) => l.id).sort());
  });

  it('holds deliveries back: due only once the hold is over', async () => {
    const a = delivery('acme');
    expect(await store.newDeliveries.insertMany([a], 400)).toBe(1);
    expect(await store.leases.claimDue('copy', 10_000, 10, 10, new Map())).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 450));
    expect((await store.leases.claimDue('copy', 10_000, 10, 10, new Map())).map((c) => c.eventId)).toEqual([a.eventId]);
  });

  it('writes leases of attempts already started, taking over a held row nobody leased, never a leased or attempted one', async () => {
    const [held, fresh, leasedElsewhere, attempted] = [delivery('acme'), delivery('acme'), delivery('acme'), delivery('acme')];
    await store.newDeliveries.insertMany([held], 60_000); // read again by the partition's next owner, held back
    await store.newDeliveries.insertLeased([leasedElsewhere], 'other-copy', 60_000);
    const [done] = await store.newDeliveries.insertLeased([attempted], 'other-copy', 60_000);
    await store.records.recordAttempts([{ id: done.id, leaseToken: done.leaseToken, attempt: 1, at: new Date(), statusCode: 200, durationMs: 1, error: null, retryAfterMs: null, next: { status: 'delivered' } }]);
    const mine = [held, fresh, leasedElsewhere, attempted].map((d) => ({
      id: randomUUID(), domain: d.domain, eventId: d.eventId, eventName: d.eventName, body: d.body, attempts: 0, roundStart: 0, leaseToken: randomUUID(),
    }));
    const written = await store.newDeliveries.writeLeased(mine, 'first-copy', 60_000);
    expect([...written].sort()).toEqual([mine[0].id, mine[1].id].sort());
    const { rows } = await pool.query('select id, event_id, lease_owner, lease_token, next_attempt_at <= now() as due from webhook_deliveries order by seq');
    expect(rows).toEqual([
      { id: mine[0].id, event_id: held.eventId, lease_owner: 'first-copy', lease_token: mine[0].leaseToken, due: true },
      { id: expect.any(String), event_id: leasedElsewhere.eventId, lease_owner: 'other-copy', lease_token: expect.any(String), due: true },
      { id: done.id, event_id: attempted.eventId, lease_owner: null, lease_token: null, due: true },
      { id: mine[1].id, event_id: fresh.eventId, lease_owner: 'first-copy', lease_token: mine[1].leaseToken, due: true },
    ]);
    // the taken-over row is the writer's: its attempt is recorded under the writer's id and lease
    const recorded = await store.records.recordAttempts([{ id: mine[0].id, leaseToken: mine[0].leaseToken, attempt: 1, at: new Date(), statusCode: 200, durationMs: 1, error: null, retryAfterMs: null, next: { status: 'delivered' } }]);
    expect([...recorded.recorded]).toEqual([mine[0].id]);
    // its dedupe key names it: the log finds it by event id, and the event read again makes nothing new
    expect((await store.log.list('acme', { eventId: held.eventId }, 10, undefined)).deliveries.map((d) => d.id)).toEqual([mine[0].id]);
    expect(await store.newDeliveries.insertMany([held, fresh])).toBe(0);
  });

  it('takes over a held row whose insert commits while the lease write waits for its key', async () => {
    const held = delivery('acme');
    const mine = { id: randomUUID(), domain: held.domain, eventId: held.eventId, eventName: EVT, body: held.body, attempts: 0, roundStart: 0, leaseToken: randomUUID() };
    // The partition's next owner holds the event back, its statement not yet committed (a transaction left open on one connection).
    const nextOwner = await pool.connect();
    try {
      await nextOwner.query('begin');
      expect(await deliveryStores(nextOwner as unknown as Pool).newDeliveries.insertMany([held], 60_000)).toBe(1);
      const { rows: [{ pid }] } = await nextOwner.query<{ pid: number }>('select pg_backend_pid() as pid');
      const writing = store.newDeliveries.writeLeased([mine], 'first-copy', 60_000);
      // The old owner's lease write now waits on the held row's key; the hold commits only then.
      await eventually(async () => ((await pool.query('select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [pid])).rowCount ?? 0) > 0);
      await nextOwner.query('commit');
      expect([...(await writing)]).toEqual([mine.id]);
    } finally {
      nextOwner.release();
    }
    const { rows } = await pool.query('select id, lease_owner, lease_token from webhook_deliveries');
    expect(rows).toEqual([{ id: mine.id, lease_owner: 'first-copy', lease_token: mine.leaseToken }]);
  });

  it('writes small batches on its plan-once connections and larger ones on the main pool, alike', async () => {
    const { options, connectionString } = pool.options;
    const plannedOnce = new Pool({ connectionString, options: `${options} -c plan_cache_mode=force_generic_plan`, max: 1 });
    const onPlannedOnce = jest.spyOn(plannedOnce, 'query');
    try {
      const steady = deliveryStores(pool, plannedOnce);
      const batchOf = (n: number) => Array.from({ length: n }, () => delivery('acme'));
      for (const batch of [batchOf(1), batchOf(PLANNED_ONCE_MAX_BATCH), batchOf(PLANNED_ONCE_MAX_BATCH + 1)]) {
        const leased = await steady.newDeliveries.insertLeased(batch, 'consumer-copy', 10_000);
        expect(leased.map((l) => l.eventId)).toEqual(batch.map((d) => d.eventId));
        const { recorded } = await steady.records.recordAttempts(leased.map((l) => ({
          id: l.id, leaseToken: l.leaseToken, attempt: 1, at: new Date(), statusCode: 200, durationMs: 1, error: null, retryAfterMs: null, next: { status: 'delivered' as const },
        })));
        expect([...recorded].sort()).toEqual(leased.map((l) => l.id).sort());
      }
      // the batch of one and the batch of PLANNED_ONCE_MAX_BATCH, inserted and recorded
      expect(onPlannedOnce).toHaveBeenCalledTimes(4);
      expect((await pool.query(`select count(*)::int as n from webhook_deliveries where status = 'delivered'`)).rows[0].n).toBe(1 + 2 * PLANNED_ONCE_MAX_BATCH + 1);
    } finally {
      await plannedOnce.end();
    }
  });

  it('records an attempt under the lease taken at insert', async () => {
    const [d] = await store.newDeliveries.insertLeased([delivery('acme')], 'consumer-copy', 10_000);
    const { recorded } = await store.records.recordAttempts([
      { id: d.id, leaseToken: d.leaseToken, attempt: 1, at: new Date(), statusCode: 200, durationMs: 3, error: null, retryAfterMs: null, next: { status: 'delivered' } },
    ]);
    expect([...recorded]).toEqual([d.id]);
    expect((await pool.query('select status, attempts, lease_owner from webhook_deliveries where id = $1', [d.id])).rows[0]).toEqual({ status: 'delivered', attempts: 1, lease_owner: null });
  });

  it('leases a due delivery to exactly one of many concurrent claimers', async () => {
    await store.newDeliveries.insertMany([delivery('acme')]);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => store.leases.claimDue(`owner-${i}`, 10_000, 10, 10, new Map())));
    expect(claims.flat()).toHaveLength(1);
    // still leased: nobody else gets it
    expect(await store.leases.claimDue('late', 10_000, 10, 10, new Map())).toHaveLength(0);
  });

  it('shares many deliveries between concurrent claimers without overlap', async () => {
    await store.newDeliveries.insertMany(Array.from({ length: 300 }, (_, i) => delivery(`dom-${i % 7}`)));
    const claims = await Promise.all(Array.from({ length: 4 }, (_, i) => store.leases.claimDue(`owner-${i}`, 10_000, 100, 1000, new Map())));
    const ids = claims.flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
  });

  it('re-leases a delivery whose lease expired (a crashed copy), and ignores the old lease holder afterwards', async () => {
    await store.newDeliveries.insertMany([delivery('acme')]);
    const [first] = await store.leases.claimDue('crashed', 1, 10, 10, new Map());
    await new Promise((r) => setTimeout(r, 20));
    const [second] = await store.leases.claimDue('survivor', 10_000, 10, 10, new Map());
    expect(second.id).toBe(first.id);
    expect(second.leaseToken).not.toBe(first.leaseToken);
    const record = (token: string, attempt: number) => ({
      id: first.id, leaseToken: token, attempt, at: new Date(), statusCode: 200, durationMs: 5, error: null, retryAfterMs: null, next: { status: 'delivered' as const },
    });
    expect((await store.records.recordAttempts([record(first.leaseToken, 1)])).recorded.size).toBe(0);
    expect([...(await store.records.recordAttempts([record(second.leaseToken, 1)])).recorded]).toEqual([first.id]);
    const { rows } = await pool.query('select status, attempts, lease_owner from webhook_deliveries where id = $1', [first.id]);
    expect(rows[0]).toEqual({ status: 'delivered', attempts: 1, lease_owner: null });
  });

  it('caps a claim per domain and honours the room left per domain', async () => {
    const busy = uniqueDomain('busy');
    const calm = uniqueDomain('calm');
    await store.newDeliveries.insertMany([...Array.from({ length: 10 }, () => delivery(busy)), ...Array.from({ length: 3 }, () => delivery(calm))]);
    const claimed = await store.leases.claimDue('o', 10_000, 100, 2, new Map([[busy, 0]]));
    expect(claimed.filter((c) => c.domain === busy)).toHaveLength(0);
    expect(claimed.filter((c) => c.domain === calm)).toHaveLength(2);
    const more = await store.leases.claimDue('o', 10_000, 100, 4, new Map([[calm, 0]]));
    expect(more.filter((c) => c.domain === busy)).toHaveLength(4);
  });

  it('schedules a retry, then skips it until it is due', async () => {
    await store.newDeliveries.insertMany([delivery('acme')]);
    const [c] = await store.leases.claimDue('o', 10_000, 10, 10, new Map());
    await store.records.recordAttempts([
      { id: c.id, leaseToken: c.leaseToken, attempt: 1, at: new Date(), statusCode: 503, durationMs: 3, error: 'HTTP 503', retryAfterMs: null, next: { status: 'pending', at: new Date(Date.now() + 300) } },
    ]);
    expect(await store.leases.claimDue('o', 10_000, 10, 10, new Map())).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 350));
    const [again] = await store.leases.claimDue('o', 10_000, 10, 10, new Map());
    expect(again).toMatchObject({ id: c.id, attempts: 1, roundStart: 0 });
    expect(await store.leases.pendingCount()).toBe(1);
  });

  it('redelivers only failed deliveries of the caller domain, as a new round', async () => {
    await store.newDeliveries.insertMany([delivery('acme')]);
    const [c] = await store.leases.claimDue('o', 10_000, 10, 10, new Map());
    expect(await store.log.redeliver('acme', c.id)).toBe('conflict');
    await store.records.recordAttempts([{ id: c.id, leaseToken: c.leaseToken, attempt: 1, at: new Date(), statusCode: 401, durationMs: 3, error: 'HTTP 401', retryAfterMs: null, next: { status: 'failed' } }]);
    expect(await store.log.redeliver('globex', c.id)).toBe('not-found');
    expect(await store.log.redeliver('acme', randomUUID())).toBe('not-found');
    expect(await store.log.redeliver('acme', c.id)).toBe('ok');
    const [again] = await store.leases.claimDue('o', 10_000, 10, 10, new Map());
    expect(again).toMatchObject({ id: c.id, attempts: 1, roundStart: 1 });
  });

  it('lists a domain newest first with attempts oldest first, page by page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const d = delivery('acme');
      ids.push(d.eventId);
      await store.newDeliveries.insertMany([d]);
    }
    await store.newDeliveries.insertMany([delivery('globex')]);
    const claimed = await store.leases.claimDue('o', 10_000, 10, 10, new Map());
    const mine = claimed.find((c) => c.eventId === ids[4])!;
    await store.records.recordAttempts([{ id: mine.id, leaseToken: mine.leaseToken, attempt: 1, at: new Date(), statusCode: 500, durationMs: 1, error: 'HTTP 500', retryAfterMs: null, next: { status: 'pending', at: new Date() } }]);
    const again = (await store.leases.claimDue('o', 10_000, 10, 10, new Map())).find((c) => c.id === mine.id)!;
    await store.records.recordAttempts([{ id: mine.id, leaseToken: again.leaseToken, attempt: 2, at: new Date(), statusCode: 200, durationMs: 1, error: null, retryAfterMs: null, next: { status: 'delivered' } }]);

    const page1 = await store.log.list('acme', {}, 3, undefined);
    expect(page1.deliveries.map((d) => d.event_id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(page1.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    const page2 = await store.log.list('acme', {}, 3, page1.deliveries[2].seq);
    expect(page2.deliveries.map((d) => d.event_id)).toEqual([ids[1], ids[0]]);
    expect((await store.log.list('acme', { status: 'delivered' }, 10, undefined)).deliveries.map((d) => d.event_id)).toEqual([ids[4]]);
  });

  it('orders by position numerically (9 before 10), across digit boundaries', async () => {
    await pool.query(`select setval(pg_get_serial_sequence('webhook_deliveries', 'seq'), 4)`);
    for (let i = 0; i < 12; i++) await store.newDeliveries.insertMany([delivery('digits')]);
    const { deliveries } = await store.log.list('digits', {}, 50, undefined);
    const seqs = deliveries.map((d) => Number(d.seq));
    expect(seqs).toHaveLength(12);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(String(seqs[0]).length).toBeGreaterThan(String(seqs[11]).length);
  });

  it("serves every domain at once however long another domain's backlog is, round-robin over domains", async () => {
    const big = 'aaa-big';
    const small = 'zzz-small';
    await store.newDeliveries.insertMany(Array.from({ length: 1500 }, () => delivery(big)));
    await store.newDeliveries.insertMany(Array.from({ length: 3 }, () => delivery(small)));
    const claimed = await store.leases.claimDue('o', 10_000, 100, 10, new Map());
    expect(claimed.filter((c) => c.domain === big)).toHaveLength(10);
    expect(claimed.filter((c) => c.domain === small)).toHaveLength(3);

    // one domain per claim: the claims take turns
    await pool.query('truncate webhook_deliveries, webhook_attempts, webhook_delivery_keys');
    await store.newDeliveries.insertMany([...Array.from({ length: 5 }, () => delivery('d-a')), ...Array.from({ length: 5 }, () => delivery('d-b'))]);
    const turns: string[] = [];
    let after = '';
    for (let i = 0; i < 4; i++) {
      const c = await store.leases.claimDue('o', 10_000, 100, 1, new Map(), after, 1);
      turns.push(...c.map((x) => x.domain));
      after = c.lastDomain ?? '';
    }
    expect(turns).toEqual(['d-a', 'd-b', 'd-a', 'd-b']);
  });
});
