import { randomUUID } from 'node:crypto';
import type { CallerContext } from '@tailsync/contracts';
import { ensureTopics, Murmur2Partitioner } from '@tailsync/service-kit';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { eventTypeOnTopic } from '../testing/event-type-on-topic';
import { eventually, infraKafka, isolatedDatabase, newSharedSecret, testConfig, uniqueDomain } from '../testing/harness';
import { BackfillJobs } from './backfill-jobs.store';
import { BackfillWorker } from './backfill.worker';

const EVT = 'Product.RiskAssessmentExecuted';

/** Backfill jobs across dispatcher copies on the real broker and database: resumed from their checkpoint, capped across copies. */
describe('backfill jobs (real Kafka, real PostgreSQL, several dispatcher copies)', () => {
  const topic = `test.risk-assessment-executed.backfill-jobs.${randomUUID().slice(0, 8)}`;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let producer: Producer;
  const copies: DispatcherCopy[] = [];

  beforeAll(async () => {
    await ensureTopics(infraKafka(), [{ topic, numPartitions: 3 }]);
    producer = new Kafka({ ...infraKafka(), clientId: 'backfill-jobs-spec', logLevel: logLevel.NOTHING }).producer({ createPartitioner: Murmur2Partitioner });
    await producer.connect();
    db = await isolatedDatabase('backfill_jobs');
  });
  afterAll(async () => {
    for (const copy of copies) await copy.get(BackfillWorker).stop().catch(() => undefined);
    await Promise.all(copies.map((copy) => copy.close()));
    await producer.disconnect();
    await db.drop();
  });

  /** A copy with only its backfill worker running (no scheduler: the deliveries stay pending, to be counted). */
  async function copy(name: string, settings: Record<string, string> = {}): Promise<DispatcherCopy> {
    const made = await DispatcherCopy.create({
      config: testConfig({ WEBHOOK_BACKFILL_LEASE_SECONDS: '1', ...settings }), instanceId: name, pool: db.pool, eventTypes: [eventTypeOnTopic(topic)],
      backfillPageSize: 10, backfillPollMs: 50,
    });
    copies.push(made);
    return made;
  }
  const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });
  async function withEvents(via: DispatcherCopy, count: number): Promise<string> {
    const domain = uniqueDomain();
    const put = await via.requests.subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: 'http://127.0.0.1:9/hook', sharedSecret: newSharedSecret() } });
    if (!put.ok) throw new Error(JSON.stringify(put.problem));
    for (let sent = 0; sent < count; sent += 500) {
      const messages = Array.from({ length: Math.min(500, count - sent) }, () => ({ key: domain, value: JSON.stringify({ eventId: randomUUID(), domain, occurredAt: new Date().toISOString(), data: { n: 1 } }) }));
      await producer.send({ topic, acks: -1, messages });
    }
    return domain;
  }
  async function queued(via: DispatcherCopy, domain: string): Promise<string> {
    const reply = await via.requests.backfill.backfill({ caller: caller(domain), body: { since: new Date(Date.now() - 300_000).toISOString() } });
    if (!reply.ok) throw new Error(JSON.stringify(reply.problem));
    return reply.result.backfillId;
  }
  const job = async (id: string) =>
    (await db.pool.query<{ state: string; events_found: string; events_stored: string; checkpoint: object; started_at: Date; finished_at: Date | null }>('select * from webhook_backfills where id = $1', [id])).rows[0];
  const backfilled = async (id: string) =>
    (await db.pool.query<{ n: string; distinct_events: string }>('select count(*) as n, count(distinct event_id) as distinct_events from webhook_deliveries where backfill_id = $1', [id])).rows[0];

  it("resumes a job from its checkpoint on another copy when its copy stops mid-way, storing no event twice", async () => {
    const a = await copy('a');
    const domain = await withEvents(a, 2000);
    const id = await queued(a, domain);
    a.get(BackfillWorker).start();
    const partly = await eventually(async () => {
      const row = await job(id);
      return Number(row.events_stored) > 0 ? row : undefined;
    }, 20_000, 5);
    await a.get(BackfillWorker).stop();
    const stopped = await job(id);
    expect(stopped.state).toBe('running'); // given back, not finished
    expect(Number(stopped.events_stored)).toBeGreaterThanOrEqual(Number(partly.events_stored));
    expect(Number(stopped.events_stored)).toBeLessThan(2000);
    expect(Object.keys(stopped.checkpoint)).toEqual([topic]);

    const b = await copy('b');
    b.get(BackfillWorker).start();
    const done = await eventually(async () => ((await job(id)).state === 'done' ? job(id) : undefined), 30_000);
    // Read from the checkpoint on: a fresh start would have found the first events again.
    expect({ found: Number(done.events_found), stored: Number(done.events_stored) }).toEqual({ found: 2000, stored: 2000 });
    expect(await backfilled(id)).toEqual({ n: '2000', distinct_events: '2000' });
    await b.get(BackfillWorker).stop();
  });

  it('stores a long backfill at most WEBHOOK_BACKFILL_AHEAD_SECONDS ahead of its pace, and the rest as its deliveries come due', async () => {
    // 1,000 deliveries at 200/s span 5 s: the job may store 1 s of them ahead, then waits.
    const f = await copy('f', { WEBHOOK_RECOVERY_PER_SECOND: '200', WEBHOOK_BACKFILL_AHEAD_SECONDS: '1' });
    const domain = await withEvents(f, 1000);
    const id = await queued(f, domain);
    let furthestMs = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await db.pool.query<{ ahead_ms: number | null }>(
          `select extract(epoch from max(next_attempt_at) - clock_timestamp()) * 1000 as ahead_ms from webhook_deliveries where backfill_id = $1`,
          [id],
        );
        furthestMs = Math.max(furthestMs, Number(rows[0].ahead_ms ?? 0));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    f.get(BackfillWorker).start();
    await eventually(async () => (await job(id)).state === 'done', 30_000);
    sampling = false;
    await sampler;
    // 1 s ahead, plus the page (10 deliveries, 50 ms) that crossed it.
    expect(furthestMs).toBeGreaterThan(500);
    expect(furthestMs).toBeLessThanOrEqual(1_100);
    expect(await backfilled(id)).toEqual({ n: '1000', distinct_events: '1000' });
    const { rows } = await db.pool.query<{ span_ms: number }>(
      `select extract(epoch from max(next_attempt_at) - min(next_attempt_at)) * 1000 as span_ms from webhook_deliveries where backfill_id = $1`,
      [id],
    );
    expect(Number(rows[0].span_ms)).toBeGreaterThanOrEqual(4_994); // never faster than one every 5 ms
    await f.get(BackfillWorker).stop();
  });

  it('takes over a job whose copy died (its lease ran out) and finishes it', async () => {
    const c = await copy('c');
    const domain = await withEvents(c, 30);
    const id = await queued(c, domain);
    const dead = await c.get(BackfillJobs).claim('a-copy-that-died', 1_000, 2);
    expect(dead?.id).toBe(id);
    c.get(BackfillWorker).start();
    await new Promise((r) => setTimeout(r, 500));
    expect((await job(id)).state).toBe('running'); // its lease still holds
    await eventually(async () => (await job(id)).state === 'done', 10_000);
    expect(await backfilled(id)).toEqual({ n: '30', distinct_events: '30' });
    await c.get(BackfillWorker).stop();
  });

  it('runs at most WEBHOOK_BACKFILL_CONCURRENCY jobs at once across copies, the others waiting queued, one job per domain', async () => {
    const settings = { WEBHOOK_BACKFILL_CONCURRENCY: '2' };
    const [d, e] = [await copy('d', settings), await copy('e', settings)];
    const domains: string[] = [];
    for (let k = 0; k < 5; k++) domains.push(await withEvents(d, 400));
    const ids: string[] = [];
    for (const domain of domains) ids.push(await queued(d, domain));
    const again = await d.requests.backfill.backfill({ caller: caller(domains[0]), body: { since: new Date(Date.now() - 60_000).toISOString() } });
    expect(again).toMatchObject({ ok: false, problem: { kind: 'conflict', detail: expect.stringContaining(ids[0]) } });

    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await db.pool.query<{ n: string }>(`select count(*) as n from webhook_backfills where id = any($1) and state = 'running'`, [ids]);
        most = Math.max(most, Number(rows[0].n));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    d.get(BackfillWorker).start();
    e.get(BackfillWorker).start();
    await eventually(async () => {
      const { rows } = await db.pool.query<{ n: string }>(`select count(*) as n from webhook_backfills where id = any($1) and state = 'done'`, [ids]);
      return Number(rows[0].n) === 5;
    }, 60_000);
    sampling = false;
    await sampler;
    expect(most).toBe(2);
    // Their lifetimes, as the table tells them: never more than two at once.
    const { rows } = await db.pool.query<{ started_at: Date; finished_at: Date }>('select started_at, finished_at from webhook_backfills where id = any($1)', [ids]);
    const overlapping = rows.map((r) => rows.filter((o) => o.started_at <= r.started_at && o.finished_at > r.started_at).length);
    expect(Math.max(...overlapping)).toBeLessThanOrEqual(2);
    for (const id of ids) expect(await backfilled(id)).toEqual({ n: '400', distinct_events: '400' });
    await Promise.all([d.get(BackfillWorker).stop(), e.get(BackfillWorker).stop()]);
  });
});
