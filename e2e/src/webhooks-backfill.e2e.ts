/** Backfill from the input topic on the whole stack: events published before the subscription existed, a real receiver. */
import { backfillGroupPrefix } from '@tailsync/contracts';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, Kafka, ResourcePatternTypes } from 'kafkajs';
import { api, newServiceAccount } from './support/accounts';
import { principalKafka, testKafkaClients } from './support/kafka';
import { deliveryOf, EVT, newSecret, publish, publishedBeforeSubscribing, receiver } from './support/webhooks';

describe('POST /WebhookSubscriptions/Deliveries/Backfill', () => {
  it("gives a subscription created now the events published before it, once each, and not those it has", async () => {
    const account = await newServiceAccount();
    const since = new Date(Date.now() - 60_000).toISOString();
    const old = await publishedBeforeSubscribing(account.domain, 4);

    const r = await receiver();
    const saved = await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: newSecret() });
    expect(saved.status).toBe(200);
    const [live] = await publish(account.domain, 1);
    await deliveryOf(account, live.eventId, 'delivered');

    const res = await api(account, 'POST', '/WebhookSubscriptions/Deliveries/Backfill', { since });
    expect(res).toMatchObject({ status: 202, body: { backfillId: expect.stringMatching(/^[0-9a-f-]{36}$/), events: 4 } });
    for (const e of old) expect(await deliveryOf(account, e.eventId, 'delivered')).toMatchObject({ backfillId: res.body.backfillId, recoveryId: null });
    expect((await deliveryOf(account, live.eventId, 'delivered')).backfillId).toBeNull();
    const ids = r.requests.map((q) => q.headers['webhook-id']);
    expect(ids).toEqual([live.eventId, ...old.map((e) => e.eventId)]); // the live one once, then the backfill in the topic order

    const again = await api(account, 'POST', '/WebhookSubscriptions/Deliveries/Backfill', { since });
    expect(again).toMatchObject({ status: 202, body: { events: 0 } });
  });

  it('answers 400 for a since it cannot serve and 404 without a subscription; the route is in /openapi.json', async () => {
    const account = await newServiceAccount();
    const r = await receiver();
    await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: newSecret() });
    for (const body of [{}, { since: 'soon' }, { since: new Date(Date.now() - 8 * 86_400_000).toISOString() }, { since: new Date(Date.now() + 60_000).toISOString() }]) {
      const res = await api(account, 'POST', '/WebhookSubscriptions/Deliveries/Backfill', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(Object.keys(res.body.fieldErrors)).toEqual(['since']);
    }
    await api(account, 'DELETE', '/WebhookSubscriptions');
    expect((await api(account, 'POST', '/WebhookSubscriptions/Deliveries/Backfill', { since: new Date().toISOString() })).status).toBe(404);
    const doc = (await api(null, 'GET', '/openapi.json')).body;
    expect(doc.paths['/WebhookSubscriptions/Deliveries/Backfill'].post.operationId).toBe('backfillDeliveries');
  });

  it("answers 503 at once, storing nothing, when the dispatcher's principal lost Read on its backfill groups (the ACL is missing)", async () => {
    const account = await newServiceAccount();
    const since = new Date(Date.now() - 60_000).toISOString();
    // An event a backfill would deliver: without one on the partition it would not read at all.
    await publishedBeforeSubscribing(account.domain, 1);
    const r = await receiver();
    await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: newSecret() });
    const grant = {
      resourceType: AclResourceTypes.GROUP, resourceName: backfillGroupPrefix('webhook-dispatcher-events'), resourcePatternType: ResourcePatternTypes.PREFIXED,
      principal: `User:${testKafkaClients()['webhook-dispatcher'].username}`, host: '*', operation: AclOperationTypes.READ, permissionType: AclPermissionTypes.ALLOW,
    };
    const admin = new Kafka({ ...principalKafka('admin'), clientId: 'e2e-backfill-acl' }).admin();
    await admin.connect();
    try {
      const { filterResponses } = await admin.deleteAcls({ filters: [grant] });
      expect(filterResponses[0].matchingAcls).toHaveLength(1); // the grant kafka-principals made is what this test takes away
      const started = Date.now();
      const res = await api(account, 'POST', '/WebhookSubscriptions/Deliveries/Backfill', { since });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await admin.createAcls({ acl: [grant] });
      await admin.disconnect();
    }
    expect((await api(account, 'GET', '/WebhookSubscriptions/Deliveries?limit=10')).body.items).toEqual([]);
  });
});
