import { createHash, generateKeyPairSync, sign as edSign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import type { Request } from 'express';
import { webhookVerifier } from './express';
import { jwkThumbprint, webhookJwksUrl, type WebhookPublicJwk } from './public-keys';
import { RemoteKeySet, tokenKeyId } from './remote-key-set';
import { verifyStandardWebhook } from './standard-webhooks';
import { sampleBody } from './testing/fixtures';
import { verifyWebhookRequest } from './verify';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const express = require('express') as typeof import('express');

/** An Ed25519 pair as the service publishes it (kid = RFC 7638 thumbprint), made here with node:crypto and jose. */
function keyPair(): { privateKey: KeyObject; jwk: WebhookPublicJwk } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  return { privateKey, jwk: { kty: 'OKP', crv: 'Ed25519', x, kid: jwkThumbprint({ crv: 'Ed25519', x }), alg: 'EdDSA', use: 'sig' } };
}

async function edToken(body: string, key: { privateKey: KeyObject; jwk: WebhookPublicJwk }, now = Math.floor(Date.now() / 1000)): Promise<string> {
  return new SignJWT({ payloadHash: createHash('sha256').update(body).digest('hex'), jti: 'j-1', evt: 'Product.RiskAssessmentExecuted' })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.jwk.kid })
    .setIssuedAt(now).setExpirationTime(now + 300).setIssuer('tailsync').setSubject('acme')
    .sign(key.privateKey);
}

describe('Ed25519 verification against a JWK Set', () => {
  const a = keyPair();
  const b = keyPair();

  it('verifies the EdDSA JWT by the key its kid names, and v1a signatures, and refuses HS256 tokens', async () => {
    const body = sampleBody();
    const token = await edToken(body, a);
    expect(verifyWebhookRequest({ authorizationHeader: `Token ${token}`, rawBody: body, publicKeys: { keys: [b.jwk, a.jwk] } })).toMatchObject({ ok: true, claims: { sub: 'acme' } });
    expect(verifyWebhookRequest({ authorizationHeader: `Token ${token}`, rawBody: body, publicKeys: [b.jwk] })).toMatchObject({ ok: false, step: 2, code: 'invalid-signature' });
    expect(verifyWebhookRequest({ authorizationHeader: `Token ${token}`, rawBody: body, publicKeys: [{ ...b.jwk, kid: a.jwk.kid }] })).toMatchObject({ ok: false, step: 2 });
    const ts = Math.floor(Date.now() / 1000);
    const v1a = edSign(null, Buffer.from(`evt-1.${ts}.${body}`), a.privateKey).toString('base64');
    const headers = { 'webhook-id': 'evt-1', 'webhook-timestamp': String(ts), 'webhook-signature': `v1,bogus= v1a,${v1a}` };
    expect(verifyStandardWebhook({ headers, rawBody: body, publicKeys: { keys: [a.jwk] } })).toMatchObject({ ok: true, webhookId: 'evt-1' });
    expect(verifyStandardWebhook({ headers, rawBody: body, publicKeys: { keys: [b.jwk] } })).toMatchObject({ ok: false, code: 'invalid-signature' });
    expect(verifyStandardWebhook({ headers: { ...headers, 'webhook-signature': `v1,${v1a}` }, rawBody: body, publicKeys: { keys: [a.jwk] } })).toMatchObject({ ok: false });
  });

  it('wants exactly one of secret and publicKeys', () => {
    expect(() => verifyWebhookRequest({ authorizationHeader: 'Token x.y.z', rawBody: '{}' })).toThrow(TypeError);
    expect(() => verifyWebhookRequest({ authorizationHeader: 'Token x.y.z', rawBody: '{}', secret: 's', publicKeys: [a.jwk] })).toThrow(TypeError);
    expect(() => verifyStandardWebhook({ headers: {}, rawBody: '{}', publicKeys: 'nope' as never })).toThrow(TypeError);
  });

  it('builds the JWK Set URL of a domain and reads a token kid', async () => {
    expect(webhookJwksUrl('https://api.example.com', 'acme corp')).toBe('https://api.example.com/.well-known/webhooks/jwks.json?domain=acme+corp');
    expect(webhookJwksUrl('https://api.example.com/base/', 'acme')).toBe('https://api.example.com/base/.well-known/webhooks/jwks.json?domain=acme');
    expect(tokenKeyId(`Token ${await edToken('{}', a)}`)).toBe(a.jwk.kid);
    expect(tokenKeyId('Token garbage')).toBeUndefined();
  });
});

describe('RemoteKeySet and the Express helper, against a real JWK Set server', () => {
  const a = keyPair();
  const b = keyPair();
  let published: WebhookPublicJwk[] = [a.jwk];
  let fetches = 0;
  let jwksServer: Server;
  let hookServer: Server;
  let jwksUrl: string;
  let hookUrl: string;
  let remote: RemoteKeySet;

  beforeAll(async () => {
    jwksServer = createServer((req, res) => {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/jwk-set+json', 'cache-control': 'public, max-age=300' }).end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    jwksUrl = webhookJwksUrl(`http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`, 'acme');
    remote = new RemoteKeySet(jwksUrl, { refetchAfterSeconds: 0 });
    const app = express();
    app.post('/hook', express.raw({ type: 'application/json' }), webhookVerifier({ publicKeys: remote }), (req: Request, res) => res.json({ sub: req.webhook?.claims.sub }));
    hookServer = createServer(app);
    await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await new Promise((resolve) => jwksServer.close(resolve));
    await new Promise((resolve) => hookServer.close(resolve));
  });

  const post = async (body: string, key: typeof a) =>
    fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Token ${await edToken(body, key)}` }, body });

  it('fetches the set once and keeps it for its max-age; a new kid (a rotation) fetches it again', async () => {
    const body = sampleBody();
    // A probe without a token fetches nothing (and so cannot pin an empty set before the first key exists).
    expect((await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(401);
    expect(fetches).toBe(0);
    expect((await post(body, a)).status).toBe(200);
    expect((await post(body, a)).status).toBe(200);
    expect(fetches).toBe(1);
    published = [a.jwk, b.jwk];
    const res = await post(body, b);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: 'acme' });
    expect(fetches).toBe(2);
    published = [b.jwk];
    const forged = keyPair();
    const refused = await post(body, { ...forged, jwk: { ...forged.jwk, kid: b.jwk.kid } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ step: 2, code: 'invalid-signature' });
  });

  it('keeps the set it has when the server fails, and fails when it never had one', async () => {
    const down = new RemoteKeySet('http://127.0.0.1:9/.well-known/webhooks/jwks.json?domain=acme', { timeoutMs: 500 });
    await expect(down.keys()).rejects.toThrow();
    const kept = await remote.keys();
    const failing = new RemoteKeySet(jwksUrl, { maxAgeSeconds: 0, fetch: (async () => { throw new Error('network down'); }) as typeof fetch });
    await expect(failing.keys()).rejects.toThrow('network down');
    expect(kept.keys.length).toBeGreaterThan(0);
  });
});

describe('RemoteKeySet: bounded refetching, and no trust in a stale set', () => {
  const a = keyPair();
  const b = keyPair();
  const url = 'https://api.tailsync.example/.well-known/webhooks/jwks.json?domain=acme';
  let now = Date.parse('2026-11-28T10:00:00Z');
  let published: WebhookPublicJwk[] | Error = [a.jwk];
  let fetches = 0;
  const fakeFetch = (async () => {
    fetches++;
    if (published instanceof Error) throw published;
    return new Response(JSON.stringify({ keys: published }), { headers: { 'cache-control': 'public, max-age=300' } });
  }) as typeof fetch;
  beforeEach(() => {
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    fetches = 0;
    published = [a.jwk];
  });
  afterEach(() => jest.restoreAllMocks());

  it('fetches again for a kid it does not hold at most once a minute, failed fetches included (made-up kids cannot flood the service)', async () => {
    const keys = new RemoteKeySet(url, { fetch: fakeFetch });
    await keys.keys(a.jwk.kid);
    for (let i = 0; i < 20; i++) await keys.keys(`made-up-${i}`);
    expect(fetches).toBe(1);
    now += 60_000;
    published = new Error('network down');
    expect((await keys.keys('made-up')).keys).toEqual([a.jwk]);
    expect(fetches).toBe(2);
    now += 30_000;
    published = [a.jwk, b.jwk];
    expect((await keys.keys(b.jwk.kid)).keys).toEqual([a.jwk]);
    expect(fetches).toBe(2);
    now += 30_000;
    expect((await keys.keys(b.jwk.kid)).keys).toEqual([a.jwk, b.jwk]);
    expect(fetches).toBe(3);
  });

  it('keeps its set while the service is down, until the set is maxStaleSeconds old (default an hour): then it throws', async () => {
    const keys = new RemoteKeySet(url, { fetch: fakeFetch });
    await keys.keys();
    published = new Error('network down');
    now += 3_599_000;
    expect((await keys.keys()).keys).toEqual([a.jwk]);
    now += 1_000;
    await expect(keys.keys()).rejects.toThrow(/fetched 3600 s ago and cannot be fetched again \(network down\): not trusted any more/);
    // Back up: trusted again.
    published = [b.jwk];
    expect((await keys.keys()).keys).toEqual([b.jwk]);

    const short = new RemoteKeySet(url, { fetch: fakeFetch, maxStaleSeconds: 400 });
    await short.keys();
    published = new Error('network down');
    now += 301_000;
    expect((await short.keys()).keys).toEqual([b.jwk]);
    now += 100_000;
    await expect(short.keys()).rejects.toThrow(/not trusted any more/);
  });
});
