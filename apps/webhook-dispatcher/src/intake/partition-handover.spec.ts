import { randomUUID } from 'node:crypto';
import { ensureTopics } from '@tailsync/service-kit';
import { Kafka, logLevel } from 'kafkajs';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { SubscriptionStore } from '../subscriptions/subscription.store';
import { ensureSubscriptionEventsTopic, eventually, infraKafka, isolatedDatabase, newSharedSecret, sleep, subscriptionInput, testConfig, uniqueDomain } from '../testing/harness';
import { scripts, WebhookReceiver } from '@tailsync/webhooks/testing';
import { eventTypeOnTopic } from '../testing/event-type-on-topic';

/**
 * Copies attempt a steady trickle of events before storing them (WriteBehindLeases). While a
 * partition moves between copies, the new owner reads again events the old one attempted and has
 * not stored yet: it holds them, and the old owner's late leases take them over.
 */
describe('dispatcher copies handing partitions over while events flow (real Kafka, PostgreSQL and receiver)', () => {
  const connection = infraKafka();
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    db = await isolatedDatabase('handover');
    await ensureSubscriptionEventsTopic();
    receiver = await WebhookReceiver.start(scripts.status(200));
  });
  afterAll(async () => {
    await receiver.close();
    await db.drop();
  });

  it('attempts every event exactly once while a second copy joins and the first leaves, with leases written a second late', async () => {
    const topic = `test.handover.${randomUUID().slice(0, 8)}`;
    await ensureTopics(connection, [{ topic, numPartitions: 6 }, { topic: `${topic}.dlq`, numPartitions: 1 }]);
    const settings = { WEBHOOK_EVENTS_GROUP_ID: `handover-${topic}` };
    // A long linger widens the window in which the old owner has attempted events it has not stored.
    const copy = (name: string) => DispatcherCopy.create({ config: testConfig(settings), instanceId: name, pool: db.pool, eventTypes: [eventTypeOnTopic(topic)], leaseWriteLingerMs: 1_000 });
    const subscriptions = new SubscriptionStore(db.pool);
    const domains = Array.from({ length: 12 }, () => uniqueDomain('handover'));
    for (const domain of domains) await subscriptions.put(domain, subscriptionInput(receiver.url, newSharedSecret(), domain), 3600);

    const producer = new Kafka({ ...connection, clientId: 'handover-spec', logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    const sent: string[] = [];
    const first = await copy('first');
    const second = await copy('second');
    await first.start();
    let firstStopped = false;
    try {
      const produce = (async () => {
        for (let i = 0; i < 150; i++) {
          const domain = domains[i % domains.length];
          const eventId = randomUUID();
          sent.push(eventId);
          await producer.send({ topic, messages: [{ key: domain, value: JSON.stringify({ eventId, domain, occurredAt: new Date().toISOString(), data: { i } }) }] });
          await sleep(40);
        }
      })();
      await sleep(1_500);
      await second.start(); // the partitions are shared out again
      await sleep(2_000);
      await first.stop(); // and handed over to the second copy
      firstStopped = true;
      await produce;
      await eventually(async () => new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size === sent.length, 30_000);
      await sleep(1_000);
      const attempts = new Map<string, number>();
      for (const r of receiver.requests) attempts.set(String(r.headers['webhook-id']), (attempts.get(String(r.headers['webhook-id'])) ?? 0) + 1);
      expect([...attempts].filter(([, n]) => n > 1)).toEqual([]);
      expect(receiver.requests).toHaveLength(sent.length);
      const { rows } = await db.pool.query(`select status, count(*)::int as n from webhook_deliveries where domain = any($1::text[]) group by status`, [domains]);
      expect(rows).toEqual([{ status: 'delivered', n: sent.length }]);
    } finally {
      await producer.disconnect();
      await second.stop();
      if (!firstStopped) await first.stop();
    }
  }, 90_000);
});
