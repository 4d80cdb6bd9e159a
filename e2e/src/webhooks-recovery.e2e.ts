/** Recovery after an outage and the delivery log filters, on the whole stack with a real receiver. */
import { api } from './support/accounts';
import { scripts } from './support/receiver';
import { deliveryOf, publish, subscribed } from './support/webhooks';

describe('POST /WebhookSubscriptions/Deliveries/Recover', () => {
  it('sends the failed deliveries of the window again once the endpoint is back; the log shows it and filters', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const s = await subscribed(scripts.status(503));
    const events = await publish(s.account.domain, 2);
    for (const e of events) await deliveryOf(s.account, e.eventId, 'failed');
    s.receiver.answer(scripts.status(200));
    s.receiver.reset();

    const res = await api(s.account, 'POST', '/WebhookSubscriptions/Deliveries/Recover', { since });
    expect(res).toMatchObject({ status: 202, body: { recoveryId: expect.stringMatching(/^[0-9a-f-]{36}$/), deliveries: 2 } });
    for (const e of events) {
      const d = await deliveryOf(s.account, e.eventId, 'delivered');
      expect(d.recoveryId).toBe(res.body.recoveryId);
      expect(d.attempts.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode])).toEqual([[1, 503], [2, 503], [3, 503], [4, 200]]);
    }
    expect(s.receiver.requests.map((r) => r.headers['webhook-id'])).toEqual(events.map((e) => e.eventId)); // oldest first

    const one = await api(s.account, 'GET', `/WebhookSubscriptions/Deliveries?eventId=${events[1].eventId}`);
    expect(one.body.items.map((d: { eventId: string }) => d.eventId)).toEqual([events[1].eventId]);
    const none = await api(s.account, 'GET', `/WebhookSubscriptions/Deliveries?until=${encodeURIComponent(since)}`);
    expect(none.body.items).toEqual([]);
    expect((await api(s.account, 'GET', '/WebhookSubscriptions/Deliveries?since=yesterday')).status).toBe(400);
  });

  it('answers 400 for a bad window and 404 without a subscription; the route is in /openapi.json', async () => {
    const s = await subscribed();
    for (const body of [{}, { since: 'soon' }, { since: new Date().toISOString(), until: new Date(Date.now() - 1000).toISOString() }]) {
      const res = await api(s.account, 'POST', '/WebhookSubscriptions/Deliveries/Recover', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    await api(s.account, 'DELETE', '/WebhookSubscriptions');
    expect((await api(s.account, 'POST', '/WebhookSubscriptions/Deliveries/Recover', { since: new Date(Date.now() - 1000).toISOString() })).status).toBe(404);
    const doc = (await api(null, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths['/WebhookSubscriptions/Deliveries/Recover'])).toEqual(['post']);
    expect(doc.paths['/WebhookSubscriptions/Deliveries'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['status', 'limit', 'cursor', 'eventId', 'since', 'until']),
    );
  });
});
