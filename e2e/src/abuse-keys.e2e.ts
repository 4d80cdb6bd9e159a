/**
 * A leaked Ed25519 signing key, and what the public JWK Set tells (black box, through the public
 * API, the admin API and the operational events topic).
 */
import { WEBHOOK_SUBSCRIPTIONS_TOPIC } from '@tailsync/contracts';
import { verifyWebhookRequest, type WebhookJwks } from '@tailsync/webhooks';
import { api, freshDomain, newServiceAccount, type TestAccount } from './support/accounts';
import { eventually } from './support/eventually';
import { readToEnd, schemaViolations, type RawMessage } from './support/kafka';
import { tokenOf, type ReceivedRequest } from './support/receiver';
import { baseUrl } from './support/test-stack';
import { EVT, newSecret, receiver } from './support/webhooks';

const admin = () => ({ token: process.env.ADMIN_TOKEN as string });
const jwks = async (domain: string) => {
  const res = await fetch(`${baseUrl()}/.well-known/webhooks/jwks.json?domain=${domain}`);
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as WebhookJwks };
};
const kids = async (domain: string) => (await jwks(domain)).body.keys.map((k) => k.kid);
const kidOf = (r: ReceivedRequest): string => JSON.parse(Buffer.from(tokenOf(r.headers.authorization).split('.')[0], 'base64url').toString('utf8')).kid;

async function ed25519Subscription(): Promise<{ account: TestAccount; testCall: () => Promise<ReceivedRequest> }> {
  const [account, r] = await Promise.all([newServiceAccount(), receiver()]);
  expect((await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, signatureScheme: 'ed25519' })).status).toBe(200);
  const testCall = async () => {
    const before = r.requests.length;
    expect((await api(account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { n: before } })).body).toMatchObject({ success: true });
    return r.requests[before];
  };
  return { account, testCall };
}

const problem = (res: { status: number; headers: Headers; body: { detail?: string } }) =>
  ({ status: res.status, type: res.headers.get('content-type')?.split(';')[0], detail: res.body.detail });

describe('a leaked Ed25519 key can be revoked now (black box)', () => {
  it('the tenant revokes the signing key: gone from the JWK Set at once, the next callback signed by a new key that the fresh set verifies', async () => {
    const { account, testCall } = await ed25519Subscription();
    const leaked = kidOf(await testCall());
    expect(await kids(account.domain)).toEqual([leaked]);

    const revoked = await api(account, 'POST', `/WebhookSubscriptions/SigningKeys/${leaked}/Revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.items).toEqual([expect.objectContaining({ status: 'current', retiresAt: null })]);
    const next = revoked.body.items[0].kid;
    expect(next).not.toBe(leaked);
    expect(await kids(account.domain)).toEqual([next]);

    const callback = await testCall();
    expect(kidOf(callback)).toBe(next);
    const fresh = (await jwks(account.domain)).body;
    expect(verifyWebhookRequest({ authorizationHeader: callback.headers.authorization, rawBody: callback.rawBody, publicKeys: fresh, testCalls: 'accept' }).ok).toBe(true);
    // Revoked means revoked: a second time, it is not found.
    expect(problem(await api(account, 'POST', `/WebhookSubscriptions/SigningKeys/${leaked}/Revoke`))).toMatchObject({ status: 404, type: 'application/problem+json' });
  });

  it('during a rotation, revoking the current key makes the waiting key sign at once; a second rotation while one waits is a 409 problem', async () => {
    const { account, testCall } = await ed25519Subscription();
    const rotated = await api(account, 'POST', '/WebhookSubscriptions/SigningKeys/Rotate');
    const [current, waiting] = rotated.body.items;
    expect(problem(await api(account, 'POST', '/WebhookSubscriptions/SigningKeys/Rotate'))).toEqual({ status: 409, type: 'application/problem+json', detail: expect.stringContaining(waiting.kid) });

    const revoked = await api(account, 'POST', `/WebhookSubscriptions/SigningKeys/${current.kid}/Revoke`);
    expect(revoked.body.items).toEqual([expect.objectContaining({ kid: waiting.kid, status: 'current' })]);
    expect(await kids(account.domain)).toEqual([waiting.kid]);
    expect(kidOf(await testCall())).toBe(waiting.kid);
  });

  it("an operator lists and revokes a domain's key through the admin API; the tenant sees the result", async () => {
    const { account, testCall } = await ed25519Subscription();
    const listed = await api(admin(), 'GET', `/admin/Domains/${account.domain}/SigningKeys`);
    expect(listed.status).toBe(200);
    const [key] = listed.body.items;
    expect(key).toMatchObject({ status: 'current' });

    const revoked = await api(admin(), 'POST', `/admin/Domains/${account.domain}/SigningKeys/${key.kid}/Revoke`);
    expect(revoked.status).toBe(200);
    expect(await kids(account.domain)).toEqual([revoked.body.items[0].kid]);
    expect(kidOf(await testCall())).toBe(revoked.body.items[0].kid);
    expect((await api(account, 'GET', '/WebhookSubscriptions/SigningKeys')).body).toEqual(revoked.body);
  });

  it("a tenant cannot revoke another domain's key; an unknown kid is a 404 problem, a malformed one a 400 problem, never a 500", async () => {
    const [mine, theirs] = await Promise.all([ed25519Subscription(), ed25519Subscription()]);
    const [their] = await kids(theirs.account.domain);
    expect(problem(await api(mine.account, 'POST', `/WebhookSubscriptions/SigningKeys/${their}/Revoke`))).toMatchObject({ status: 404, type: 'application/problem+json' });
    expect(await kids(theirs.account.domain)).toEqual([their]);
    expect(problem(await api(mine.account, 'POST', `/WebhookSubscriptions/SigningKeys/${'A'.repeat(43)}/Revoke`))).toMatchObject({ status: 404, type: 'application/problem+json' });
    for (const kid of ['a'.repeat(65), 'not%20a%20kid', '%2e%2e', '%C0%AF', '%FF']) {
      const res = await api(mine.account, 'POST', `/WebhookSubscriptions/SigningKeys/${kid}/Revoke`);
      expect({ kid, refused: [400, 404].includes(res.status), type: res.headers.get('content-type')?.split(';')[0] }).toEqual({ kid, refused: true, type: 'application/problem+json' });
    }
    expect(problem(await api(admin(), 'POST', `/admin/Domains/${mine.account.domain}/SigningKeys/${'a'.repeat(65)}/Revoke`))).toMatchObject({ status: 400, type: 'application/problem+json' });
  });
});

describe('the JWK Set tells nothing of who exists or who used Ed25519 (black box)', () => {
  it("a deleted subscription's and an HMAC subscription's keys are on their way out (a grace period), and revocable meanwhile; then the set is exactly an unknown domain's", async () => {
    const deleted = await ed25519Subscription();
    const switched = await ed25519Subscription();
    const t0 = Date.now();
    expect((await api(deleted.account, 'DELETE', '/WebhookSubscriptions/')).status).toBe(204);
    const r = await receiver();
    expect((await api(switched.account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: newSecret() })).status).toBe(200);

    for (const { account } of [deleted, switched]) {
      const listed = (await api(account, 'GET', '/WebhookSubscriptions/SigningKeys')).body.items;
      expect(listed).toEqual([expect.objectContaining({ status: 'retiring', retiresAt: expect.any(String) })]);
      // Stack default WEBHOOK_SECRET_GRACE_SECONDS: a day from the change.
      expect(Date.parse(listed[0].retiresAt) - t0).toBeGreaterThan(86_400_000 - 60_000);
      expect(Date.parse(listed[0].retiresAt) - t0).toBeLessThanOrEqual(86_400_000 + 60_000);
      expect((await api(account, 'POST', `/WebhookSubscriptions/SigningKeys/${listed[0].kid}/Revoke`)).body).toEqual({ items: [] });
    }
    const unknown = await jwks(freshDomain());
    for (const { account } of [deleted, switched]) expect(await jwks(account.domain)).toEqual(unknown);
    expect(unknown).toEqual({ status: 200, type: expect.stringMatching(/^application\/jwk-set\+json/), body: { keys: [] } });
  });
});

describe('every rotation and revocation is an operational event (black box, on the topic)', () => {
  it('SigningKeyRotated and SigningKeyRevoked (who revoked, which key signs now), schema-valid, no secret', async () => {
    const { account } = await ed25519Subscription();
    const rotated = (await api(account, 'POST', '/WebhookSubscriptions/SigningKeys/Rotate')).body.items;
    const byTenant = (await api(account, 'POST', `/WebhookSubscriptions/SigningKeys/${rotated[0].kid}/Revoke`)).body.items;
    const byOperator = (await api(admin(), 'POST', `/admin/Domains/${account.domain}/SigningKeys/${byTenant[0].kid}/Revoke`)).body.items;

    const mine = (all: RawMessage[]) => all.filter((m) => m.key === account.domain && /"type":"SigningKey/.test(m.value?.toString('utf8') ?? ''));
    const messages = mine(await eventually(async () => {
      const all = await readToEnd(WEBHOOK_SUBSCRIPTIONS_TOPIC.topic);
      return mine(all).length >= 3 ? all : undefined;
    }, 30_000));
    expect(messages.flatMap((m) => schemaViolations(WEBHOOK_SUBSCRIPTIONS_TOPIC, m))).toEqual([]);
    expect(messages.map((m) => { const { type, data } = JSON.parse(m.value!.toString('utf8')); return [type, data]; })).toEqual([
      ['SigningKeyRotated', { kid: rotated[1].kid, signsFrom: rotated[1].signsFrom, retiringKid: rotated[0].kid, retiresAt: rotated[0].retiresAt }],
      ['SigningKeyRevoked', { kid: rotated[0].kid, revokedBy: 'tenant', signingKid: rotated[1].kid }],
      ['SigningKeyRevoked', { kid: rotated[1].kid, revokedBy: 'operator', signingKid: byOperator[0].kid }],
    ]);
  });
});
