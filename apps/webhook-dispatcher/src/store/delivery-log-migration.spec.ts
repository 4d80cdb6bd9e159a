import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { runMigrations } from '@tailsync/service-kit';
import { migratedSchema } from '@tailsync/service-kit/testing';
import { Pool } from 'pg';
import { deliveryStores, infraEnv } from '../testing/harness';
import { DISPATCHER_MIGRATIONS } from './migrate';

const PARTITIONS = '20261126220000000_delivery-log-partitions';
const DAY = 86_400_000;
const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('moving a filled delivery log into weekly partitions (real PostgreSQL)', () => {
  const admin = new Pool({ connectionString: infraEnv().DATABASE_URL, max: 2 });
  const earlier = mkdtempSync(join(tmpdir(), 'dispatcher-migrations-'));
  let schema: Awaited<ReturnType<typeof migratedSchema>>;
  let pool: Pool;

  beforeAll(async () => {
    // the migrations before partitioning, recorded in the same table, so the real set goes on from them
    for (const file of readdirSync(DISPATCHER_MIGRATIONS.dir)) if (file < PARTITIONS) copyFileSync(join(DISPATCHER_MIGRATIONS.dir, file), join(earlier, file));
    schema = await migratedSchema(admin, [{ ...DISPATCHER_MIGRATIONS, dir: earlier }], 'wht_filled');
    pool = new Pool({ connectionString: infraEnv().DATABASE_URL, max: 4, options: `-c search_path="${schema.schema}"` });
  });
  afterAll(async () => {
    await pool.end();
    await schema.drop();
    await admin.end();
    rmSync(earlier, { recursive: true, force: true });
  });

  it('keeps 100,000 deliveries and their attempts readable through the delivery queries, deduped, recoverable and attemptable', async () => {
    // 100 domains, created over the last 70 days; 1 in 10 pending (no attempt yet), 1 in 10 failed after two attempts
    await pool.query(`
      insert into webhook_deliveries (domain, event_id, event_name, body, status, attempts, created_at, updated_at, traceparent)
      select 'fill-' || (g % 100), gen_random_uuid(), 'Product.RiskAssessmentExecuted', '{"n":' || g || '}',
             case g % 10 when 0 then 'pending' when 1 then 'failed' else 'delivered' end, case g % 10 when 0 then 0 when 1 then 2 else 1 end,
             now() - make_interval(secs => g * 60.48), now() - make_interval(secs => g * 60.48), '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
        from generate_series(1, 100000) g`);
    await pool.query(`insert into webhook_attempts (delivery_id, attempt, at, status_code, duration_ms)
                      select d.id, a, d.created_at, 200, 7 from webhook_deliveries d cross join generate_series(1, d.attempts) a`);
    const before = (await pool.query('select count(*)::int as d, (select count(*)::int from webhook_attempts) as a from webhook_deliveries')).rows[0];
    expect(before).toEqual({ d: 100_000, a: 100_000 });

    const [run] = await runMigrations(admin, [DISPATCHER_MIGRATIONS], { schema: schema.schema, logger: quiet });
    expect(run.applied).toEqual([PARTITIONS, '20261128070000000_backfill-jobs', '20261128100000000_withdrawn-signing-keys', '20261128100100000_event-feed-order']);

    // every row is in the partitioned tables, all in the first partition (no row was moved)
    const after = (await pool.query(`select count(*)::int as d, (select count(*)::int from webhook_attempts) as a,
      (select count(*)::int from webhook_delivery_keys) as k, count(*) filter (where tableoid::regclass::text like 'webhook_deliveries_to_%')::int as first
      from webhook_deliveries`)).rows[0];
    expect(after).toEqual({ d: 100_000, a: 100_000, k: 100_000, first: 100_000 });
    expect((await pool.query(`select relkind from pg_class where oid = 'webhook_deliveries'::regclass`)).rows[0].relkind).toBe('p');

    // the delivery log of a domain: all its 1,000 deliveries, page by page, with their attempts
    const store = deliveryStores(pool);
    const seen: string[] = [];
    let attempts = 0;
    for (let cursor: string | undefined; ;) {
      const page = await store.log.list('fill-7', {}, 300, cursor);
      seen.push(...page.deliveries.map((d) => d.event_id));
      attempts += page.attempts.length;
      if (page.deliveries.length < 300) break;
      cursor = page.deliveries[page.deliveries.length - 1].seq;
    }
    expect(new Set(seen).size).toBe(1_000);
    expect(attempts).toBe(1_000);
    const { rows: [old] } = await pool.query<{ event_id: string; body: string }>(`select event_id::text, body from webhook_deliveries where domain = 'fill-1' order by created_at limit 1`);
    expect((await store.log.list('fill-1', { eventId: old.event_id }, 10, undefined)).deliveries).toMatchObject([{ event_id: old.event_id }]);

    // a re-consumed event of the old log is still one delivery
    expect(await store.newDeliveries.insertMany([{ domain: 'fill-1', eventId: old.event_id, eventName: 'Product.RiskAssessmentExecuted', body: old.body }])).toBe(0);

    // a recovery over the last 31 days restarts exactly the failed deliveries created in them
    const now = new Date();
    const { rows: [expected] } = await pool.query<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries where domain = 'fill-11' and status = 'failed' and created_at >= $1`, [new Date(now.getTime() - 31 * DAY)]);
    expect(expected.n).toBeGreaterThan(0);
    expect(await store.log.recover('fill-11', { since: new Date(now.getTime() - 31 * DAY), until: now }, 50, randomUUID())).toBe(expected.n);

    // a pending delivery of the old log is claimed, carries its trace context, and its attempt is recorded beside it
    const [claimed] = await store.leases.claimDue('copy', 10_000, 1, 1, new Map([['fill-20', 1]]), 'fill-2', 1);
    expect(claimed).toMatchObject({ domain: 'fill-20', attempts: 0, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    const recorded = await store.records.recordAttempts([{ id: claimed.id, leaseToken: claimed.leaseToken, attempt: 1, at: new Date(), statusCode: 200, durationMs: 3, error: null, retryAfterMs: null, next: { status: 'delivered' } }]);
    expect([...recorded.recorded]).toEqual([claimed.id]);
    const { rows: [attempt] } = await pool.query(`select tableoid::regclass::text as part from webhook_attempts where delivery_id = $1`, [claimed.id]);
    expect(attempt.part).toMatch(/^webhook_attempts_to_\d{8}$/);

    // new deliveries go to this week's partition (the first one until next Monday), new events are new
    expect(await store.newDeliveries.insertMany([{ domain: 'fill-1', eventId: randomUUID(), eventName: 'Product.RiskAssessmentExecuted', body: '{}' }])).toBe(1);
    expect((await pool.query('select count(*)::int as n from webhook_deliveries')).rows[0].n).toBe(100_001);
  });
});
