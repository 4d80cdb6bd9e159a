import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { CallerContext, SigningKeysView } from '@tailsync/contracts';
import { verifyWebhookRequest, type WebhookJwks } from '@tailsync/webhooks';
import { callbackBody } from '../intake/domain/event-message';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { eventually, isolatedDatabase, newSharedSecret, sleep, uniqueDomain } from '../testing/harness';
import { runningDispatcher, stopDispatcher } from '../testing/running-dispatcher';
import { scripts, WebhookReceiver, type ReceivedRequest } from '@tailsync/webhooks/testing';
import { SigningKeyRequests } from '../interface/signing-key-requests';
import { SubscriptionRequests } from '../interface/subscription-requests';

const EVT = 'Product.RiskAssessmentExecuted';
const GRACE_SECONDS = 2;

/** Python `cryptography` (e2e/python/verify_ed25519.py): an implementation independent of ours. */
function verifiedByCryptography(jwks: WebhookJwks, requests: ReceivedRequest[]): { ok: boolean; kid?: string; error?: string }[] {
  const python = process.env.TAILSYNC_TEST_PYTHON;
  if (!python) throw new Error('TAILSYNC_TEST_PYTHON is not set: run the suite with `npm test`');
  const script = join(__dirname, '..', '..', '..', '..', 'e2e', 'python', 'verify_ed25519.py');
  const input = { jwks, callbacks: requests.map((r) => ({ headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)])), body: r.rawBody.toString('base64') })) };
  const result = spawnSync(python, [script], { input: JSON.stringify(input), encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`verify_ed25519.py failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe('Ed25519 signing keys: publication before signing, retirement after (RPC handlers, real PostgreSQL, real receivers)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let runtime: DispatcherCopy;
  let subscriptions: SubscriptionRequests;
  let keys: SigningKeyRequests;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    db = await isolatedDatabase('signing_keys');
    runtime = await runningDispatcher(db.pool, 'keys', { WEBHOOK_SECRET_GRACE_SECONDS: String(GRACE_SECONDS), WEBHOOK_RETRY_DELAYS_MS: '200' });
    ({ subscriptions, signingKeys: keys } = runtime.requests);
    receiver = await WebhookReceiver.start(scripts.status(200));
  });
  afterAll(async () => {
    await stopDispatcher(runtime);
    await receiver.close();
    await db.drop();
  });

  const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });
  const ok = <T>(reply: { ok: true; result: T } | { ok: false; problem: unknown }): T => {
    if (!reply.ok) throw new Error(JSON.stringify(reply.problem));
    return reply.result;
  };
  const jwks = async (domain: string): Promise<WebhookJwks> => {
    const set = ok(await keys.keySet({ caller: caller(domain), body: {} }));
    return { keys: (set.keys ?? []).map(({ kid, x }) => ({ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' })) };
  };
  const kids = async (domain: string): Promise<string[]> => (await jwks(domain)).keys.map((k) => String(k.kid));
  const testCall = async (domain: string) => {
    ok(await subscriptions.test({ caller: caller(domain), body: { payloadToEcho: { n: receiver.requests.length } } }));
    return receiver.requests[receiver.requests.length - 1];
  };
  const kidOf = (r: ReceivedRequest) => JSON.parse(Buffer.from(String(r.headers.authorization).split(' ')[1].split('.')[0], 'base64url').toString()).kid;
  const statuses = (view: SigningKeysView) => view.items.map((k) => [k.kid, k.status]);

  it('a rotation publishes the new key at once, signs with it a grace period later, and drops the old one a grace period after that', async () => {
    const domain = uniqueDomain();
    const saved = ok(await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, signatureScheme: 'ed25519' } }));
    expect(saved.signatureScheme).toBe('ed25519');
    const first = await jwks(domain);
    expect(first.keys).toHaveLength(1);
    const [a] = first.keys.map((k) => k.kid);
    const beforeRotation = await testCall(domain);
    expect(kidOf(beforeRotation)).toBe(a);

    const t0 = Date.now();
    const rotated = ok(await keys.rotate({ caller: caller(domain), body: {} }));
    const b = rotated.items[1].kid;
    expect(statuses(rotated)).toEqual([[a, 'current'], [b, 'next']]);
    expect(Date.parse(rotated.items[1].signsFrom) - t0).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 1000);
    // Rotating while the new key waits is refused, saying which key waits and until when; nothing changes.
    expect(await keys.rotate({ caller: caller(domain), body: {} })).toMatchObject({ ok: false, problem: { kind: 'conflict', detail: expect.stringContaining(`Key ${b} was published at`) } });
    expect(statuses(ok(await keys.list({ caller: caller(domain), body: {} })))).toEqual([[a, 'current'], [b, 'next']]);
    const both = await jwks(domain);
    expect(both.keys.map((k) => k.kid)).toEqual([a, b]);
    const during = await testCall(domain);
    expect(kidOf(during)).toBe(a);

    // A receiver that fetched the set during the overlap verifies callbacks signed by either key.
    await sleep(Math.max(0, t0 + GRACE_SECONDS * 1000 + 100 - Date.now()));
    expect(statuses(ok(await keys.list({ caller: caller(domain), body: {} })))).toEqual([[a, 'retiring'], [b, 'current']]);
    const eventId = randomUUID();
    await runtime.newDeliveries.insertMany([{ domain, eventId, eventName: EVT, body: callbackBody(EVT, { eventId, domain, occurredAt: new Date().toISOString(), data: {} }) }]);
    runtime.scheduler.wake();
    const event = (await eventually(async () => receiver.requests.find((r) => r.headers['webhook-id'] === eventId))) as ReceivedRequest;
    expect(kidOf(event)).toBe(b);
    const afterSwitch = await testCall(domain);
    expect(kidOf(afterSwitch)).toBe(b);
    expect(verifiedByCryptography(both, [beforeRotation, during, event, afterSwitch]).map((v) => [v.ok, v.kid])).toEqual([[true, a], [true, a], [true, b], [true, b]]);
    // A receiver still holding only the first set refuses the new key's callbacks (and fetches the set again: RemoteKeySet does).
    expect(verifiedByCryptography(first, [event]).map((v) => v.ok)).toEqual([false]);
    expect(verifyWebhookRequest({ authorizationHeader: event.headers.authorization, rawBody: event.rawBody, publicKeys: first })).toMatchObject({ ok: false, step: 2 });

    await sleep(Math.max(0, t0 + 2 * GRACE_SECONDS * 1000 + 200 - Date.now()));
    expect((await jwks(domain)).keys.map((k) => k.kid)).toEqual([b]);
    expect(statuses(ok(await keys.list({ caller: caller(domain), body: {} })))).toEqual([[b, 'current']]);
  });

  it('keys belong to the domain: saving again, or switching to hmac and back within the grace period, keeps them; hmac signs with the secret meanwhile', async () => {
    const domain = uniqueDomain();
    ok(await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, signatureScheme: 'ed25519' } }));
    const [kid] = (await jwks(domain)).keys.map((k) => k.kid);
    const secret = newSharedSecret();
    const hmac = ok(await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, sharedSecret: secret } }));
    expect(hmac.signatureScheme).toBe('hmac-sha256');
    const byHmac = await testCall(domain);
    expect(String(byHmac.headers['webhook-signature'])).toMatch(/^v1,/);
    expect(verifyWebhookRequest({ authorizationHeader: byHmac.headers.authorization, rawBody: byHmac.rawBody, secret, testCalls: 'accept' }).ok).toBe(true);
    // Switched to hmac, the key is on its way out of the set.
    expect(statuses(ok(await keys.list({ caller: caller(domain), body: {} })))).toEqual([[kid, 'retiring']]);
    // Back to ed25519 without a secret: the stored secret stays (a later switch back needs none), the key is the same and stays.
    ok(await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, signatureScheme: 'ed25519' } }));
    expect((await jwks(domain)).keys.map((k) => k.kid)).toEqual([kid]);
    expect(kidOf(await testCall(domain))).toBe(kid);
    expect(ok(await keys.list({ caller: caller(domain), body: {} })).items).toEqual([expect.objectContaining({ kid, status: 'current', retiresAt: null })]);
    const rows = await db.pool.query('select secret_sealed is not null as kept from webhook_subscriptions where domain = $1', [domain]);
    expect(rows.rows).toEqual([{ kept: true }]);
    const sealed = await db.pool.query('select private_seed_sealed from webhook_signing_keys where domain = $1', [domain]);
    expect(sealed.rows[0].private_seed_sealed).toMatch(new RegExp(`^v2\\.${runtime.box.sealingKeyId}\\.`));
    expect(() => runtime.box.decrypt(sealed.rows[0].private_seed_sealed, domain)).toThrow(); // sealed to the domain and the key, not the domain alone
  });

  it('a deleted subscription, or one switched to hmac, has its keys leave the JWK Set after the grace period; then the set is empty, as for an unknown domain', async () => {
    const deleted = uniqueDomain();
    const switched = uniqueDomain();
    for (const domain of [deleted, switched]) ok(await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, signatureScheme: 'ed25519' } }));
    const t0 = Date.now();
    ok(await subscriptions.delete({ caller: caller(deleted), body: {} }));
    ok(await subscriptions.put({ caller: caller(switched), body: { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret() } }));
    // Still published while callbacks signed just before may be verified...
    expect((await jwks(deleted)).keys).toHaveLength(1);
    expect((await jwks(switched)).keys).toHaveLength(1);
    // ...and gone after it: the set no longer tells who exists or who used Ed25519.
    await sleep(Math.max(0, t0 + GRACE_SECONDS * 1000 + 200 - Date.now()));
    for (const domain of [deleted, switched, uniqueDomain()]) expect(await jwks(domain)).toEqual({ keys: [] });
    // Ed25519 again after that: a fresh key, signing at once.
    ok(await subscriptions.put({ caller: caller(deleted), body: { eventNames: [EVT], url: receiver.url, signatureScheme: 'ed25519' } }));
    const [fresh] = (await kids(deleted));
    expect(kidOf(await testCall(deleted))).toBe(fresh);
  });

  it('revoking the signing key takes it out of the set at once and the next key signs at once (a new one when none waits), announced', async () => {
    const recorded = jest.spyOn(runtime.events, 'record');
    const domain = uniqueDomain();
    ok(await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, signatureScheme: 'ed25519' } }));
    const [a] = (await kids(domain));

    const afterA = ok(await keys.revoke({ caller: caller(domain), body: { kid: a } }));
    const [b] = afterA.items.map((k) => k.kid);
    expect(statuses(afterA)).toEqual([[b, 'current']]);
    expect(b).not.toBe(a);
    expect((await kids(domain))).toEqual([b]);
    expect(kidOf(await testCall(domain))).toBe(b);

    // During a rotation, the waiting key signs at once; the replaced one stays published as it was.
    const rotated = ok(await keys.rotate({ caller: caller(domain), body: {} }));
    const c = rotated.items[1].kid;
    expect(statuses(ok(await keys.revokeByOperator({ caller: caller(domain), body: { kid: b } })))).toEqual([[c, 'current']]);
    expect(kidOf(await testCall(domain))).toBe(c);

    // Revoking the waiting key keeps the current one signing, for good.
    const d = ok(await keys.rotate({ caller: caller(domain), body: {} })).items[1].kid;
    const afterD = ok(await keys.revoke({ caller: caller(domain), body: { kid: d } }));
    expect(afterD.items).toEqual([expect.objectContaining({ kid: c, status: 'current', retiresAt: null })]);

    const announced = recorded.mock.calls.filter(([, , forDomain]) => forDomain === domain).map(([, type, , data]) => [type, data]);
    expect(announced.filter(([type]) => String(type).startsWith('SigningKey'))).toEqual([
      ['SigningKeyRevoked', { kid: a, revokedBy: 'tenant', signingKid: b }],
      ['SigningKeyRotated', { kid: c, signsFrom: rotated.items[1].signsFrom, retiringKid: b, retiresAt: rotated.items[0].retiresAt }],
      ['SigningKeyRevoked', { kid: b, revokedBy: 'operator', signingKid: c }],
      ['SigningKeyRotated', expect.objectContaining({ kid: d, retiringKid: c })],
      ['SigningKeyRevoked', { kid: d, revokedBy: 'tenant', signingKid: c }],
    ]);
    recorded.mockRestore();
  });

  it('a revoked, unknown, malformed or other domain\'s kid is not found; a switched subscription\'s key can be revoked before its grace period ends', async () => {
    const domain = uniqueDomain();
    const other = uniqueDomain();
    for (const d of [domain, other]) ok(await subscriptions.put({ caller: caller(d), body: { eventNames: [EVT], url: receiver.url, signatureScheme: 'ed25519' } }));
    const [theirs] = (await kids(other));
    const [mine] = (await kids(domain));
    for (const kid of [theirs, 'x'.repeat(43), '../etc', '', 'a'.repeat(65), 42 as never]) {
      expect(await keys.revoke({ caller: caller(domain), body: { kid } })).toMatchObject({ ok: false, problem: { kind: 'not-found' } });
    }
    expect((await kids(other))).toEqual([theirs]);
    ok(await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret() } }));
    expect(ok(await keys.revoke({ caller: caller(domain), body: { kid: mine } }))).toEqual({ items: [] });
    expect(await jwks(domain)).toEqual({ keys: [] });
    expect(await keys.revoke({ caller: caller(domain), body: { kid: mine } })).toMatchObject({ ok: false, problem: { kind: 'not-found' } });
  });

  it('refuses an unknown scheme and an hmac subscription without a secret; rotation needs an ed25519 subscription', async () => {
    const domain = uniqueDomain();
    const unknown = await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, signatureScheme: 'rsa' as never } });
    expect(unknown).toMatchObject({ ok: false, problem: { kind: 'validation', fieldErrors: { signatureScheme: ['signatureScheme must be one of hmac-sha256, ed25519.'] } } });
    const noSecret = await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url } });
    expect(noSecret).toMatchObject({ ok: false, problem: { kind: 'validation', fieldErrors: { sharedSecret: ['sharedSecret is required.'] } } });
    expect(await keys.rotate({ caller: caller(domain), body: {} })).toMatchObject({ ok: false, problem: { kind: 'not-found' } });
    ok(await subscriptions.put({ caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret() } }));
    expect(await keys.rotate({ caller: caller(domain), body: {} })).toMatchObject({ ok: false, problem: { kind: 'conflict' } });
    expect(await jwks(domain)).toEqual({ keys: [] });
  });
});
