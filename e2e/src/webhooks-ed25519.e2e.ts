/**
 * signatureScheme "ed25519": callbacks signed with the domain's Ed25519 key, verified by a receiver
 * that holds no shared secret, only the public keys it fetched from the JWK Set endpoint: by an
 * independent implementation (Python `cryptography`, and `jose`), and by both receiver packages.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  jwkThumbprint, RemoteKeySet, tokenKeyId, verifyStandardWebhook, verifyWebhookRequest, webhookJwksUrl, type WebhookJwks,
} from '@tailsync/webhooks';
import { api } from './support/accounts';
import { runPython } from './support/python';
import { scripts, tokenOf, type ReceivedRequest } from './support/receiver';
import { baseUrl } from './support/test-stack';
import { deliveryOf, EVT, newSecret, publish, receiver, subscribed } from './support/webhooks';
import { newServiceAccount } from './support/accounts';

const REPO = join(__dirname, '..', '..');
const headersOf = (r: ReceivedRequest): Record<string, string> => Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
const fetchJwks = async (domain: string) => {
  const res = await fetch(`${baseUrl()}/.well-known/webhooks/jwks.json?domain=${domain}`);
  return { res, body: (await res.json()) as WebhookJwks };
};

interface PythonVerdict { ok: boolean; kid?: string; claims?: Record<string, unknown>; error?: string }
const verifyWithCryptography = (jwks: WebhookJwks, requests: ReceivedRequest[]) =>
  runPython<PythonVerdict[]>('verify_ed25519.py', { jwks, callbacks: requests.map((r) => ({ headers: headersOf(r), body: r.rawBody.toString('base64') })) });

/** `jose`, in a process of its own, against the JWK Set URL (its own fetching and key selection). */
function verifyWithJoseRemote(url: string, tokens: string[]): { ok: boolean; kid?: string; error?: string }[] {
  const script = `
import { createRemoteJWKSet, jwtVerify } from 'jose';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { url, tokens } = JSON.parse(input);
const keys = createRemoteJWKSet(new URL(url));
const out = [];
for (const token of tokens) {
  try {
    const { protectedHeader } = await jwtVerify(token, keys, { algorithms: ['EdDSA'], issuer: 'tailsync' });
    out.push({ ok: true, kid: protectedHeader.kid });
  } catch (error) {
    out.push({ ok: false, error: String(error && error.code || error) });
  }
}
process.stdout.write(JSON.stringify(out));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, input: JSON.stringify({ url, tokens }), encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) throw new Error(`jose failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** The PyPI package (from sdks/python) with its RemoteKeySet fetching the real endpoint. */
function verifyWithPythonPackage(url: string, requests: ReceivedRequest[]): { token: boolean; standard: boolean; error?: string }[] {
  const script = `
import base64, json, sys
from tailsync_webhooks import RemoteKeySet, token_key_id, verify_standard_webhook, verify_webhook
request = json.load(sys.stdin)
keys = RemoteKeySet(request["url"])
out = []
for c in request["callbacks"]:
    body = base64.b64decode(c["body"])
    auth = c["headers"]["authorization"]
    try:
        verify_webhook(auth, body, public_keys=keys.keys(token_key_id(auth)), test_calls="accept")
        verify_standard_webhook(c["headers"], body, public_keys=keys.keys(), test_calls="accept")
        out.append({"token": True, "standard": True})
    except Exception as error:
        out.append({"token": False, "standard": False, "error": repr(error)})
print(json.dumps(out))`;
  const python = process.env.TAILSYNC_TEST_PYTHON;
  if (!python) throw new Error('TAILSYNC_TEST_PYTHON is not set: run the suite with `npm test`');
  const result = spawnSync(python, ['-c', script], {
    input: JSON.stringify({ url, callbacks: requests.map((r) => ({ headers: headersOf(r), body: r.rawBody.toString('base64') })) }),
    encoding: 'utf8', timeout: 60_000, env: { ...process.env, PYTHONPATH: join(REPO, 'sdks', 'python', 'src'), PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (result.status !== 0) throw new Error(`python package check failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe('signatureScheme ed25519 with key discovery', () => {
  it('signs events (every attempt) and Test calls with the domain key of the public JWK Set; no shared secret anywhere', async () => {
    const [account, r] = await Promise.all([newServiceAccount(), receiver(scripts.sequence(503, 200, 200))]);
    const saved = await api(account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: r.url, signatureScheme: 'ed25519' });
    expect(saved.status).toBe(200);
    expect(saved.body.signatureScheme).toBe('ed25519');

    // Public (no Authorization), cacheable, a JWK Set with the domain's one key, named by its RFC 7638 thumbprint.
    const { res, body: jwks } = await fetchJwks(account.domain);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(jwks.keys).toHaveLength(1);
    const [key] = jwks.keys;
    expect(key).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: jwkThumbprint(key), alg: 'EdDSA', use: 'sig' });
    expect(JSON.stringify(jwks)).not.toMatch(/"d"/);

    const [event] = await publish(account.domain);
    await deliveryOf(account, event.eventId, 'delivered');
    const test = await api(account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { hello: 'wörld' } });
    expect(test.body.success).toBe(true);
    const requests = r.requests;
    expect(requests.map((q) => q.headers['webhook-id'])).toEqual([event.eventId, event.eventId, expect.stringMatching(/^test_/)]);
    for (const q of requests) expect(q.headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);

    // Independent: Python `cryptography` with the fetched set, and jose fetching the set itself.
    const python = verifyWithCryptography(jwks, requests);
    expect(python.map((v) => [v.ok, v.kid, v.error])).toEqual(requests.map(() => [true, key.kid, undefined]));
    expect(python.map((v) => v.claims!.sub)).toEqual([account.domain, account.domain, account.domain]);
    expect(python[2].claims!.test).toBe(true);
    const url = webhookJwksUrl(baseUrl(), account.domain);
    expect(verifyWithJoseRemote(url, requests.map((q) => tokenOf(q.headers.authorization)))).toEqual(requests.map(() => ({ ok: true, kid: key.kid })));

    // Our npm package with a RemoteKeySet on the real endpoint; our PyPI package the same way.
    const keys = new RemoteKeySet(url);
    for (const q of requests) {
      const publicKeys = await keys.keys(tokenKeyId(q.headers.authorization as string));
      expect(verifyWebhookRequest({ authorizationHeader: q.headers.authorization, rawBody: q.rawBody, publicKeys, testCalls: 'accept' })).toMatchObject({ ok: true });
      expect(verifyStandardWebhook({ headers: headersOf(q), rawBody: q.rawBody, publicKeys, testCalls: 'accept' })).toMatchObject({ ok: true });
    }
    expect(verifyWithPythonPackage(url, requests)).toEqual(requests.map(() => ({ token: true, standard: true })));

    // Another domain's keys do not verify these callbacks.
    const other = await subscribed();
    await api(other.account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: other.receiver.url, signatureScheme: 'ed25519' });
    const { body: otherKeys } = await fetchJwks(other.account.domain);
    expect(otherKeys.keys).toHaveLength(1);
    expect(otherKeys.keys[0].kid).not.toBe(key.kid);
    expect(verifyWithCryptography(otherKeys, requests).map((v) => v.ok)).toEqual([false, false, false]);
    expect(verifyWebhookRequest({ authorizationHeader: requests[0].headers.authorization, rawBody: requests[0].rawBody, publicKeys: otherKeys })).toMatchObject({ ok: false, step: 2 });
  });

  it('publishes a rotated key at once and keeps signing with the current one for the grace period', async () => {
    const [account, r] = await Promise.all([newServiceAccount(), receiver()]);
    expect((await api(account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: r.url, signatureScheme: 'ed25519' })).status).toBe(200);
    const before = await fetchJwks(account.domain);
    const rotated = await api(account, 'POST', '/WebhookSubscriptions/SigningKeys/Rotate');
    expect(rotated.status).toBe(200);
    const [current, next] = rotated.body.items;
    expect(current).toMatchObject({ kid: before.body.keys[0].kid, status: 'current', retiresAt: expect.any(String) });
    expect(next).toMatchObject({ status: 'next', retiresAt: null });
    // Stack default WEBHOOK_SECRET_GRACE_SECONDS: 86,400 s before the new key signs, and as long again before the old one leaves.
    expect(Date.parse(next.signsFrom) - Date.parse(next.createdAt)).toBe(86_400_000);
    expect(Date.parse(current.retiresAt) - Date.parse(next.signsFrom)).toBe(86_400_000);
    // A second rotation while the next key waits is refused, naming that key: it changes nothing.
    const again = await api(account, 'POST', '/WebhookSubscriptions/SigningKeys/Rotate');
    expect({ status: again.status, detail: again.body.detail }).toEqual({ status: 409, detail: expect.stringContaining(`Key ${next.kid} was published at`) });

    const after = await fetchJwks(account.domain);
    expect(after.body.keys.map((k) => k.kid)).toEqual([current.kid, next.kid]);
    const [event] = await publish(account.domain);
    await deliveryOf(account, event.eventId, 'delivered');
    expect(verifyWithCryptography(after.body, r.requests).map((v) => v.kid)).toEqual([current.kid]);
  });

  it('refuses what makes no sense: an hmac subscription without a secret, an unknown scheme, a rotation of an hmac key, a JWK Set without a domain', async () => {
    const [account, r] = await Promise.all([newServiceAccount(), receiver()]);
    const noSecret = await api(account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: r.url });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.fieldErrors.sharedSecret).toEqual(['sharedSecret is required.']);
    const unknown = await api(account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: r.url, signatureScheme: 'rsa', sharedSecret: newSecret() });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fieldErrors.signatureScheme).toEqual(['signatureScheme must be hmac-sha256 or ed25519.']);
    expect((await api(account, 'POST', '/WebhookSubscriptions/SigningKeys/Rotate')).status).toBe(404);
    expect((await api(account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: r.url, sharedSecret: newSecret() })).body.signatureScheme).toBe('hmac-sha256');
    expect((await api(account, 'POST', '/WebhookSubscriptions/SigningKeys/Rotate')).status).toBe(409);
    const none = await fetchJwks(account.domain);
    expect(none.res.status).toBe(200);
    expect(none.body).toEqual({ keys: [] });
    for (const query of ['', '?domain=', '?domain=UPPER', `?domain=${'a'.repeat(64)}`]) {
      const res = await fetch(`${baseUrl()}/.well-known/webhooks/jwks.json${query}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });
});
