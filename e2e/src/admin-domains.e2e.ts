/** The admin endpoints over one domain's data: its subscription, its delivery log (redeliver, recover) and its tails. */
import { CLOUDEVENTS_HEADERS as CE, WEBHOOK_SUBSCRIPTIONS_TOPIC, webhookSubscriptionCloudEventType } from '@tailsync/contracts';
import { api, freshDomain, newServiceAccount } from './support/accounts';
import { readToEnd, schemaViolations } from './support/kafka';
import { scripts } from './support/receiver';
import { eventually } from './support/eventually';
import { deliveryOf, publish, subscribed } from './support/webhooks';

const admin = () => ({ token: process.env.ADMIN_TOKEN as string });

describe('admin API: domains', () => {
  it('lists every domain with its accounts (not deleted), tails and subscription', async () => {
    const s = await subscribed();
    const other = await newServiceAccount(s.account.domain);
    await api(admin(), 'DELETE', `/admin/ServiceAccounts/${other.clientId}`);
    await api(s.account, 'PUT', '/Tails', { tailId: 'm-1', tailNumber: 'N1' });
    await api(s.account, 'PUT', '/Tails', { tailId: 'm-2', tailNumber: 'N2' });
    const bare = await newServiceAccount();
    const res = await api(admin(), 'GET', '/admin/Domains');
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(expect.arrayContaining([
      { domain: s.account.domain, serviceAccounts: 1, tails: 2, subscription: { status: 'active', url: s.receiver.url } },
      { domain: bare.domain, serviceAccounts: 1, tails: 0, subscription: null },
    ]));
    expect((await api(null, 'GET', '/admin/Domains')).status).toBe(401);
  });
});

describe('admin API: a domain\'s subscription', () => {
  it('shows it with its health, enables it, and runs a test call', async () => {
    const s = await subscribed(scripts.status(503));
    const base = `/admin/Domains/${s.account.domain}/Subscription`;
    const view = await api(admin(), 'GET', base);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ url: s.receiver.url, status: 'active', health: { failedDeliveriesInARow: 0 } });
    expect(JSON.stringify(view.body)).not.toContain(s.secret);
    const test = await api(admin(), 'POST', `${base}/Test`, { payloadToEcho: { hello: 'operator' } });
    expect(test).toMatchObject({ status: 200, body: { success: false, diagnostics: { statusCode: 503 } } });
    expect(s.receiver.requests.at(-1)?.rawBody.toString('utf8')).toBe('{"hello":"operator"}');
    expect((await api(admin(), 'POST', `${base}/Enable`)).status).toBe(200);
    expect((await api(admin(), 'GET', `/admin/Domains/${freshDomain()}/Subscription`)).status).toBe(404);
  });
});

describe('admin API: disabling a domain\'s subscription', () => {
  it('disables it with reason operator, idempotently, announces it once on Kafka as the published schema says, and Enable undoes it', async () => {
    const s = await subscribed();
    const base = `/admin/Domains/${s.account.domain}/Subscription`;
    const disabled = await api(admin(), 'POST', `${base}/Disable`);
    expect(disabled).toMatchObject({ status: 200, body: { url: s.receiver.url, status: 'disabled', disabledReason: 'operator', disabledAt: expect.any(String) } });
    expect(JSON.stringify(disabled.body)).not.toContain(s.secret);
    const again = await api(admin(), 'POST', `${base}/Disable`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(disabled.body); // same reason, same disabledAt
    expect((await api(s.account, 'GET', '/WebhookSubscriptions')).body).toMatchObject({ status: 'disabled', disabledReason: 'operator' });
    expect(await api(admin(), 'POST', `${base}/Enable`)).toMatchObject({ status: 200, body: { status: 'active', disabledReason: null, disabledAt: null } });

    const mine = await eventually(async () => {
      const messages = (await readToEnd(WEBHOOK_SUBSCRIPTIONS_TOPIC.topic)).filter((m) => m.key === s.account.domain);
      return messages.length >= 3 ? messages : undefined;
    }, 30_000);
    const values = mine.map((m) => JSON.parse(m.value!.toString('utf8')) as { type: string; data: unknown });
    expect(values.map((v) => [v.type, v.data])).toEqual([
      ['SubscriptionSaved', { url: s.receiver.url }],
      ['SubscriptionDisabledByOperator', { url: s.receiver.url, reason: 'operator' }],
      ['SubscriptionEnabled', { url: s.receiver.url, reason: 'enable' }],
    ]);
    expect(mine[1].headers[CE.type]).toBe(webhookSubscriptionCloudEventType('SubscriptionDisabledByOperator'));
    expect(mine.flatMap((m) => schemaViolations(WEBHOOK_SUBSCRIPTIONS_TOPIC, m))).toEqual([]);
  });

  it('is 404 for a domain without a subscription, 400 for a malformed domain, admin token only, and in /openapi.json', async () => {
    const s = await subscribed();
    const path = (domain: string) => `/admin/Domains/${domain}/Subscription/Disable`;
    expect((await api(admin(), 'POST', path(freshDomain()))).status).toBe(404);
    await api(s.account, 'DELETE', '/WebhookSubscriptions');
    expect(await api(admin(), 'POST', path(s.account.domain))).toMatchObject({ status: 404, body: { detail: expect.any(String) } });
    expect((await api(admin(), 'POST', path('Not_A_Domain'))).status).toBe(400);
    expect((await api(null, 'POST', path(s.account.domain))).status).toBe(401);
    expect((await api(s.account, 'POST', path(s.account.domain))).status).toBe(401); // an integrator's token is no admin token

    const doc = (await api(null, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths['/admin/Domains/{domain}/Subscription/Disable'])).toEqual(['post']);
    // OpenAPI 3.1: a nullable enum is anyOf [the enum, null].
    expect(doc.components.schemas.SubscriptionView.properties.disabledReason.anyOf).toEqual([{ type: 'string', enum: ['gone', 'failing', 'operator'] }, { type: 'null' }]);
  });
});

describe('admin API: a domain\'s deliveries', () => {
  it('lists, filters, redelivers and recovers any domain\'s deliveries with the admin token', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const s = await subscribed(scripts.status(503));
    const [first, second] = await publish(s.account.domain, 2);
    for (const e of [first, second]) await deliveryOf(s.account, e.eventId, 'failed');
    const base = `/admin/Domains/${s.account.domain}/Deliveries`;

    const failed = await api(admin(), 'GET', `${base}?status=failed&eventId=${first.eventId}`);
    expect(failed.status).toBe(200);
    expect(failed.body.items).toEqual([expect.objectContaining({ eventId: first.eventId, status: 'failed', attempts: expect.any(Array) })]);
    expect(failed.body.items[0].attempts[0]).toMatchObject({ attempt: 1, statusCode: 503, durationMs: expect.any(Number), retryAfterMs: null });
    expect((await api(s.account, 'GET', base)).status).toBe(401); // an integrator's token is no admin token

    s.receiver.answer(scripts.status(200));
    const redelivered = await api(admin(), 'POST', `${base}/${failed.body.items[0].id}/Redeliver`);
    expect(redelivered.status).toBe(202);
    await deliveryOf(s.account, first.eventId, 'delivered');

    const recovered = await api(admin(), 'POST', `${base}/Recover`, { since });
    expect(recovered).toMatchObject({ status: 202, body: { deliveries: 1 } });
    await deliveryOf(s.account, second.eventId, 'delivered');

    expect((await api(admin(), 'GET', '/admin/Domains/Not_A_Domain/Deliveries')).status).toBe(400);
    expect((await api(admin(), 'POST', `/admin/Domains/${freshDomain()}/Deliveries/Recover`, { since })).status).toBe(404);
  });
});

describe('admin API: a domain\'s tails', () => {
  it('finds a tail by any source\'s Mapped ID or by tail number, with every mapping, and reads its history', async () => {
    const domain = freshDomain();
    const [a, b] = [await newServiceAccount(domain), await newServiceAccount(domain)];
    expect((await api(a, 'PUT', '/Tails', { tailId: 'a-1', tailNumber: 'N77AB' })).status).toBeLessThan(300);
    expect((await api(b, 'PUT', '/Tails', { tailId: 'b-1', tailNumber: 'n77ab' })).status).toBeLessThan(300);
    const base = `/admin/Domains/${domain}/Tails`;
    const mappings = [{ source: a.clientId, mappedId: 'a-1' }, { source: b.clientId, mappedId: 'b-1' }];

    for (const q of ['mappedId=b-1', 'tailNumber=N77AB']) {
      const found = await api(admin(), 'GET', `${base}?${q}`);
      expect(found.status).toBe(200);
      expect(found.body.items).toEqual([expect.objectContaining({ tailNumber: 'N77AB', mappedId: null, mappings: expect.arrayContaining(mappings.map((m) => expect.objectContaining(m))) })]);
    }
    expect((await api(admin(), 'GET', `${base}?mappedId=nobody`)).body.items).toEqual([]);
    expect((await api(admin(), 'GET', base)).status).toBe(400);

    const history = await api(admin(), 'GET', `${base}/History?source=${b.clientId}&mappedId=b-1`);
    expect(history.status).toBe(200);
    expect(history.body.items.map((e: { type: string }) => e.type)).toEqual(['TailCreated', 'MappingAdded']);
    expect((await api(admin(), 'GET', `${base}/History?source=${b.clientId}&mappedId=a-1`)).status).toBe(404);
  });
});

describe('admin API: the overview', () => {
  it('counts the last hour per minute for the whole system and per domain, with lags and failing subscriptions', async () => {
    const s = await subscribed(scripts.status(503));
    await api(s.account, 'PUT', '/Tails', { tailId: 'o-1', tailNumber: 'NOVER1' });
    const events = await publish(s.account.domain, 3);
    for (const e of events) await deliveryOf(s.account, e.eventId, 'failed');

    const res = await eventually(async () => {
      const r = await api(admin(), 'GET', '/admin/Overview');
      const mine = r.body.domains?.find((d: { domain: string }) => d.domain === s.account.domain);
      return mine && sum(mine.failed) === 3 ? r : undefined; // the gateway keeps an answer for 5 s
    }, 15_000);
    expect(res.status).toBe(200);
    const o = res.body;
    expect(o.minutes).toHaveLength(60);
    const mine = o.domains.find((d: { domain: string }) => d.domain === s.account.domain);
    expect({ tails: sum(mine.tailsWritten), events: sum(mine.eventsConsumed), delivered: sum(mine.delivered), failed: sum(mine.failed) }).toEqual({ tails: 1, events: 3, delivered: 0, failed: 3 });
    expect(mine.failed).toHaveLength(60);
    expect(sum(o.total.failed)).toBeGreaterThanOrEqual(3);
    expect(o.lags.map((l: { name: string }) => l.name)).toEqual(['tails', 'relay:tailsync.tail-events']);
    for (const lag of o.lags) expect(lag).toEqual({ name: expect.any(String), events: expect.any(Number), capped: expect.any(Boolean), seconds: expect.any(Number) });
    expect(o.consumerLag).toEqual(expect.any(Number));
    expect(o.subscriptions).toContainEqual(expect.objectContaining({ domain: s.account.domain, url: s.receiver.url, status: 'active', failedDeliveriesInARow: 3 }));
    expect((await api(null, 'GET', '/admin/Overview')).status).toBe(401);
  });
});

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
