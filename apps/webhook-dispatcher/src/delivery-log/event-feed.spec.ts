import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { deliveryStores, isolatedDatabase, uniqueDomain } from '../testing/harness';
import type { NewDelivery } from './delivery';
import { FEED_START, type FeedPosition } from './domain/feed-iterator';
import { EventFeed } from './event-feed.store';

const EVT = 'Product.RiskAssessmentExecuted';
const delivery = (domain: string): NewDelivery => {
  const eventId = randomUUID();
  return { domain, eventId, eventName: EVT, body: JSON.stringify({ eventId, occurredAt: '2026-01-01T00:00:00Z' }) };
};
const LONG_AGO = new Date(0);

describe('the polling door\'s reads of the delivery log (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let pool: Pool;
  let store: ReturnType<typeof deliveryStores>;
  let feed: EventFeed;

  beforeAll(async () => {
    db = await isolatedDatabase('feed');
    pool = db.pool;
    store = deliveryStores(pool);
    feed = new EventFeed(pool);
  });
  afterAll(() => db.drop());

  /** The feed once it shows `count` events (a transaction elsewhere on the server may hold it back a moment). */
  async function readUntil(domain: string, after: FeedPosition, count: number, limit = 100) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const events = await feed.read(domain, after, LONG_AGO, limit);
      if (events.length >= count || Date.now() > deadline) return events;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("reads a domain's events oldest first, page after page, never another domain's, none written before `since`", async () => {
    const domain = uniqueDomain();
    const mine = [delivery(domain), delivery(domain), delivery(domain)];
    await store.newDeliveries.insertMany([mine[0], delivery(uniqueDomain())]);
    await store.newDeliveries.insertMany([mine[1], mine[2]]);

    const first = await readUntil(domain, FEED_START, 2, 2);
    expect(first.map((e) => e.eventId)).toEqual([mine[0].eventId, mine[1].eventId]);
    expect(first[0]).toEqual({ eventId: mine[0].eventId, eventName: EVT, body: mine[0].body, position: { xact: expect.stringMatching(/^\d+$/), seq: expect.stringMatching(/^\d+$/) } });
    const rest = await readUntil(domain, first[1].position, 1);
    expect(rest.map((e) => e.eventId)).toEqual([mine[2].eventId]);
    expect(await feed.read(domain, rest[0].position, LONG_AGO, 100)).toEqual([]);
    expect(await feed.read(domain, FEED_START, new Date(Date.now() + 60_000), 100)).toEqual([]);
  });

  it('never shows an event behind one a reader may have passed: a later commit waits for an earlier transaction still open', async () => {
    const domain = uniqueDomain();
    const early = delivery(domain);
    const late = delivery(domain);
    const open = await pool.connect();
    try {
      // The early row takes its seq and transaction first but commits last.
      await open.query('begin');
      await open.query('insert into webhook_deliveries (domain, event_id, event_name, body) values ($1, $2, $3, $4)', [domain, early.eventId, EVT, early.body]);
      await store.newDeliveries.insertMany([late]);
      const { rows } = await pool.query('select count(*)::int as n from webhook_deliveries where domain = $1', [domain]);
      expect(rows[0].n).toBe(1); // the late row is committed and visible...
      expect(await feed.read(domain, FEED_START, LONG_AGO, 100)).toEqual([]); // ...but not shown yet
      await open.query('commit');
    } finally {
      open.release();
    }
    expect((await readUntil(domain, FEED_START, 2)).map((e) => e.eventId)).toEqual([early.eventId, late.eventId]);
  });
});
