/** Backfill jobs on the whole stack: events published before the subscription existed, a real receiver. */
import { randomUUID } from 'node:crypto';
import { backfillGroupPrefix } from '@tailsync/contracts';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, Kafka, ResourcePatternTypes } from 'kafkajs';
import { api, newServiceAccount, type TestAccount } from './support/accounts';
import { eventually, sleep } from './support/eventually';
import { principalKafka, testKafkaClients } from './support/kafka';
import { deliveryOf, EVT, newSecret, publish, publishedBeforeSubscribing, receiver } from './support/webhooks';

const admin = () => ({ token: process.env.ADMIN_TOKEN as string });
const BACKFILL = '/WebhookSubscriptions/Deliveries/Backfill';

/** The job once it has finished (done, failed or cancelled). */
const finished = (account: TestAccount, backfillId: string) =>
  eventually(async () => {
    const res = await api(account, 'GET', `${BACKFILL}/${backfillId}`);
    return ['done', 'failed', 'cancelled'].includes(res.body?.state) ? res.body : undefined;
  }, 30_000);

async function subscribedAccount() {
  const account = await newServiceAccount();
  const r = await receiver();
  const saved = await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: newSecret() });
  expect(saved.status).toBe(200);
  return { account, r };
}

/**
 * A subscribed account with `count` of its events on the topic from before it subscribed: a
 * backfill of them runs long enough (pages of 500, each stored in a transaction) to be seen running.
 */
async function withUnsentEvents(count: number) {
  const account = await newServiceAccount();
  await publishedBeforeSubscribing(account.domain, count);
  const r = await receiver();
  const saved = await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: newSecret() });
  expect(saved.status).toBe(200);
  return { account, r };
}

describe('POST /WebhookSubscriptions/Deliveries/Backfill (a job)', () => {
  it('answers 202 queued at once; the job then gives the events published before the subscription, once each, and not those it has', async () => {
    const account = await newServiceAccount();
    const since = new Date(Date.now() - 60_000).toISOString();
    const old = await publishedBeforeSubscribing(account.domain, 4);

    const r = await receiver();
    const saved = await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: newSecret() });
    expect(saved.status).toBe(200);
    const [live] = await publish(account.domain, 1);
    await deliveryOf(account, live.eventId, 'delivered');

    const res = await api(account, 'POST', BACKFILL, { since });
    expect(res).toMatchObject({ status: 202, body: { backfillId: expect.stringMatching(/^[0-9a-f-]{36}$/), state: 'queued', since: new Date(since).toISOString(), eventsFound: 0, eventsStored: 0, startedAt: null, finishedAt: null } });
    const job = await finished(account, res.body.backfillId);
    expect(job).toMatchObject({ backfillId: res.body.backfillId, state: 'done', eventsFound: 5, eventsStored: 4, startedAt: expect.any(String), finishedAt: expect.any(String) });
    for (const e of old) expect(await deliveryOf(account, e.eventId, 'delivered')).toMatchObject({ backfillId: res.body.backfillId, recoveryId: null });
    expect((await deliveryOf(account, live.eventId, 'delivered')).backfillId).toBeNull();
    const ids = r.requests.map((q) => q.headers['webhook-id']);
    expect(ids).toEqual([live.eventId, ...old.map((e) => e.eventId)]); // the live one once, then the backfill in the topic order

    const again = await api(account, 'POST', BACKFILL, { since });
    expect(again.status).toBe(202);
    expect(await finished(account, again.body.backfillId)).toMatchObject({ state: 'done', eventsFound: 5, eventsStored: 0 });
  });

  it("answers 409 naming the job while one is queued or running; DELETE cancels it (200) and its work stops, and again 409; another domain's id is 404", async () => {
    const { account } = await withUnsentEvents(10_000);
    const since = new Date(Date.now() - 300_000).toISOString();
    try {
      const first = await api(account, 'POST', BACKFILL, { since });
      expect(first.status).toBe(202);
      const second = await api(account, 'POST', BACKFILL, { since });
      expect(second.status).toBe(409);
      expect(second.headers.get('content-type')).toContain('application/problem+json');
      expect(second.body.detail).toContain(first.body.backfillId);

      const other = await newServiceAccount();
      for (const method of ['GET', 'DELETE']) expect((await api(other, method, `${BACKFILL}/${first.body.backfillId}`)).status).toBe(404);

      const cancelled = await api(account, 'DELETE', `${BACKFILL}/${first.body.backfillId}`);
      expect(cancelled).toMatchObject({ status: 200, body: { backfillId: first.body.backfillId, state: 'cancelled', finishedAt: expect.any(String) } });
      const twice = await api(account, 'DELETE', `${BACKFILL}/${first.body.backfillId}`);
      expect(twice).toMatchObject({ status: 409, body: { detail: expect.stringMatching(/cancelled already/) } });
      // Its copy stops at its next page (a page being stored when it was cancelled is in the answer's counts): nothing more is stored.
      await sleep(2_000);
      const later = (await api(account, 'GET', `${BACKFILL}/${first.body.backfillId}`)).body;
      expect(later).toMatchObject({ state: 'cancelled', eventsStored: cancelled.body.eventsStored, eventsFound: cancelled.body.eventsFound });
      expect(later.eventsStored).toBeLessThan(10_000);
      // A new one may start once none is queued or running.
      const next = await api(account, 'POST', BACKFILL, { since: new Date().toISOString() });
      expect(next.status).toBe(202);
      expect(await finished(account, next.body.backfillId)).toMatchObject({ state: 'done' });
    } finally {
      await api(account, 'DELETE', '/WebhookSubscriptions'); // its backfilled deliveries would go on into the next tests
    }
  });

  it('answers 400 for a since it cannot serve or a malformed id, 404 for an unknown id or without a subscription; the routes are in /openapi.json', async () => {
    const { account } = await subscribedAccount();
    for (const body of [{}, { since: 'soon' }, { since: new Date(Date.now() - 8 * 86_400_000).toISOString() }, { since: new Date(Date.now() + 60_000).toISOString() }]) {
      const res = await api(account, 'POST', BACKFILL, body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(Object.keys(res.body.fieldErrors)).toEqual(['since']);
    }
    for (const method of ['GET', 'DELETE']) {
      for (const id of ['not-a-uuid', '1', "x'or'1'='1", '%00']) {
        const res = await api(account, method, `${BACKFILL}/${id}`);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
      }
      expect((await api(account, method, `${BACKFILL}/${randomUUID()}`)).status).toBe(404);
    }
    await api(account, 'DELETE', '/WebhookSubscriptions');
    expect((await api(account, 'POST', BACKFILL, { since: new Date().toISOString() })).status).toBe(404);
    const doc = (await api(null, 'GET', '/openapi.json')).body;
    expect(doc.paths['/WebhookSubscriptions/Deliveries/Backfill'].post.operationId).toBe('backfillDeliveries');
    expect(doc.paths['/WebhookSubscriptions/Deliveries/Backfill/{backfillId}'].get.operationId).toBe('getBackfill');
    expect(doc.paths['/WebhookSubscriptions/Deliveries/Backfill/{backfillId}'].delete.operationId).toBe('cancelBackfill');
  });

  it("the operator's twin queues, shows, lists and cancels a domain's jobs", async () => {
    const { account } = await withUnsentEvents(10_000);
    const path = `/admin/Domains/${account.domain}/Deliveries/Backfill`;
    const queued = await api(admin(), 'POST', path, { since: new Date(Date.now() - 300_000).toISOString() });
    expect(queued).toMatchObject({ status: 202, body: { state: 'queued' } });
    expect((await api(admin(), 'POST', path, { since: new Date().toISOString() })).status).toBe(409);
    expect((await api(admin(), 'GET', `${path}/${queued.body.backfillId}`)).body.backfillId).toBe(queued.body.backfillId);
    expect((await api(admin(), 'DELETE', `${path}/${queued.body.backfillId}`))).toMatchObject({ status: 200, body: { state: 'cancelled' } });
    const listed = await api(admin(), 'GET', `/admin/Domains/${account.domain}/Backfills`);
    expect(listed).toMatchObject({ status: 200, body: { items: [{ backfillId: queued.body.backfillId, state: 'cancelled' }] } });
    expect((await api(admin(), 'GET', `/admin/Domains/${account.domain}/Deliveries/Backfill/nope`)).status).toBe(400);
    expect((await api(null, 'GET', `/admin/Domains/${account.domain}/Backfills`)).status).toBe(401);
    await api(account, 'DELETE', '/WebhookSubscriptions'); // its backfilled deliveries would go on into the next tests
  });

  it("marks the job failed, storing nothing, when the dispatcher's principal lost Read on its backfill groups (the ACL is missing)", async () => {
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
    const kafkaAdmin = new Kafka({ ...principalKafka('admin'), clientId: 'e2e-backfill-acl' }).admin();
    await kafkaAdmin.connect();
    try {
      const { filterResponses } = await kafkaAdmin.deleteAcls({ filters: [grant] });
      expect(filterResponses[0].matchingAcls).toHaveLength(1); // the grant kafka-principals made is what this test takes away
      const res = await api(account, 'POST', BACKFILL, { since });
      expect(res.status).toBe(202);
      expect(await finished(account, res.body.backfillId)).toMatchObject({ state: 'failed', eventsStored: 0 });
    } finally {
      await kafkaAdmin.createAcls({ acl: [grant] });
      await kafkaAdmin.disconnect();
    }
    expect((await api(account, 'GET', '/WebhookSubscriptions/Deliveries?limit=10')).body.items).toEqual([]);
  });
});
