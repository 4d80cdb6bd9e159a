/**
 * Retry-After, 410 Gone, endpoint health and the operational events, on the whole stack: real
 * receivers, real Kafka (events in, tailsync.webhook-subscriptions out), real PostgreSQL.
 */
import { TOPICS, type WebhookSubscriptionEvent } from '@tailsync/contracts';
import { api } from './support/accounts';
import { eventually } from './support/eventually';
import { collect } from './support/kafka';
import { scripts } from './support/receiver';
import { deliveryOf, publish, subscribed } from './support/webhooks';

describe('Retry-After on 429/503', () => {
  it('moves the next attempt later and shows it in the log; a garbage value changes nothing', async () => {
    const s = await subscribed();
    s.receiver.answer((r) => (r.n === 1 ? { status: 503, headers: { 'Retry-After': '1' } } : r.n === 2 ? { status: 429, headers: { 'Retry-After': 'later' } } : { status: 200 }));
    const [event] = await publish(s.account.domain);
    const delivery = await deliveryOf(s.account, event.eventId, 'delivered');
    const [one, two, three] = s.receiver.requests;
    expect(two.receivedAt - one.receivedAt).toBeGreaterThanOrEqual(950);
    expect(three.receivedAt - two.receivedAt).toBeLessThan(950); // the schedule's 400 ms
    expect(delivery.attempts.map((a: { statusCode: number; retryAfterMs: number | null }) => [a.statusCode, a.retryAfterMs])).toEqual([[503, 1000], [429, null], [200, null]]);
  });
});

describe('410 Gone, disabled subscriptions and Enable', () => {
  it('disables on 410, records later events as skipped, announces it on Kafka; Enable brings deliveries back', async () => {
    const s = await subscribed(scripts.status(410));
    const test = await api(s.account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { a: 1 } });
    expect(test.body).toMatchObject({ success: false, diagnostics: { statusCode: 410 } });
    expect((await api(s.account, 'GET', '/WebhookSubscriptions')).body.status).toBe('active'); // a Test call changes nothing

    const [gone] = await publish(s.account.domain);
    await deliveryOf(s.account, gone.eventId, 'failed');
    const view = await eventually(async () => {
      const res = await api(s.account, 'GET', '/WebhookSubscriptions');
      return res.body.status === 'disabled' ? res.body : undefined;
    });
    expect(view).toMatchObject({ disabledReason: 'gone', disabledAt: expect.any(String), health: { lastSuccessAt: null, lastFailureAt: expect.any(String), failedDeliveriesInARow: 1 } });

    const [skipped] = await publish(s.account.domain);
    const row = await deliveryOf(s.account, skipped.eventId, 'skipped');
    expect(row.attempts).toEqual([]);
    const filtered = await api(s.account, 'GET', '/WebhookSubscriptions/Deliveries?status=skipped');
    expect(filtered.body.items.map((d: { eventId: string }) => d.eventId)).toEqual([skipped.eventId]);
    expect(s.receiver.requests).toHaveLength(2); // the Test call and the one 410

    const enabled = await api(s.account, 'POST', '/WebhookSubscriptions/Enable');
    expect(enabled).toMatchObject({ status: 200, body: { status: 'active', disabledReason: null, disabledAt: null, health: { failedDeliveriesInARow: 0 } } });
    s.receiver.answer(scripts.status(204));
    const [back] = await publish(s.account.domain);
    await deliveryOf(s.account, back.eventId, 'delivered');

    const events = await collect<WebhookSubscriptionEvent>(
      TOPICS.webhookSubscriptions, (m) => m.length >= 3, 30_000, (m) => m.key === s.account.domain,
    );
    expect(events.map((m) => [m.value.type, m.value.data])).toEqual([
      ['SubscriptionSaved', { url: s.receiver.url }],
      ['SubscriptionDisabled', { url: s.receiver.url, reason: 'gone' }],
      ['SubscriptionEnabled', { url: s.receiver.url, reason: 'enable' }],
    ]);
    expect(JSON.stringify(events)).not.toContain(s.secret);
  });

  it('Enable without a subscription is 404; the route is in /openapi.json', async () => {
    const s = await subscribed();
    await api(s.account, 'DELETE', '/WebhookSubscriptions');
    expect((await api(s.account, 'POST', '/WebhookSubscriptions/Enable')).status).toBe(404);
    const doc = (await api(null, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths['/WebhookSubscriptions/Enable'])).toEqual(['post']);
    expect(Object.keys(doc.components.schemas.SubscriptionView.properties)).toEqual(expect.arrayContaining([
      'status', 'disabledReason', 'disabledAt', 'health', 'secretUpdatedAt', 'previousSecretValidUntil',
    ]));
  });
});
