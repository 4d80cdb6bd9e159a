import { createHash, createHmac, createPublicKey, verify } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { jwkThumbprint, standardWebhooksSecret, verifyStandardWebhook, verifyWebhookRequest } from '@tailsync/webhooks';
import { signCallback } from './callback-signer';
import { DomainSigningKey, newSigningKeyPair, publicJwk } from './domain-signing-key';
import { jwtService, newSecret, sampleBody } from './signing.test-support';

const EVT = 'Product.RiskAssessmentExecuted';
const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

describe('signCallback: the JWT and the Standard Webhooks headers, checked by the official standardwebhooks package', () => {
  const body = sampleBody();
  const webhookId = '5b8f0c1e-8d0a-4f7e-9d43-2f1c2b7a9e10';

  it('is verified by standardwebhooks with whsec_ + base64 of the secret, and by our JWT verifier', () => {
    const secret = newSecret();
    const headers = lower(signCallback({ body, keys: { secrets: [secret] }, domain: 'acme', eventName: EVT, kind: 'event', webhookId, attempt: 2 }, jwtService));
    expect(new Webhook(standardWebhooksSecret(secret)).verify(body, headers)).toEqual(JSON.parse(body));
    const jwt = verifyWebhookRequest({ authorizationHeader: headers.authorization, rawBody: body, secret });
    expect(jwt.ok).toBe(true);
    expect(headers['webhook-id']).toBe(webhookId);
    expect(headers['webhook-attempt']).toBe('2');
    expect(headers['webhook-timestamp']).toBe(String(jwt.ok && jwt.claims.iat));
  });

  it('carries every header of the contract', () => {
    const secret = newSecret();
    const now = new Date('2025-06-01T12:00:00.999Z');
    const headers = signCallback({ body, keys: { secrets: [secret] }, domain: 'acme', eventName: EVT, kind: 'event', webhookId, attempt: 3, now }, jwtService);
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: expect.stringMatching(/^Token [\w-]+\.[\w-]+\.[\w-]+$/),
      'User-Agent': 'tailsync-webhooks/15.4.9707.25929',
      'Webhook-Id': webhookId,
      'Webhook-Attempt': '3',
      'Webhook-Timestamp': '1748779200',
      'Webhook-Signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
  });

  it('marks a Test call in the token and the id, and refuses an id that says otherwise', () => {
    const secret = newSecret();
    const test = lower(signCallback({ body, keys: { secrets: [secret] }, domain: 'acme', eventName: EVT, kind: 'test', webhookId: 'test_1', attempt: 1 }, jwtService));
    expect(verifyWebhookRequest({ authorizationHeader: test.authorization, rawBody: body, secret, testCalls: 'accept' })).toMatchObject({ ok: true, claims: { test: true } });
    expect(() => signCallback({ body, keys: { secrets: [secret] }, domain: 'acme', eventName: EVT, kind: 'test', webhookId, attempt: 1 }, jwtService)).toThrow(RangeError);
    expect(() => signCallback({ body, keys: { secrets: [secret] }, domain: 'acme', eventName: EVT, kind: 'event', webhookId: 'test_1', attempt: 1 }, jwtService)).toThrow(RangeError);
    expect(() => signCallback({ body, keys: { secrets: [secret] }, domain: 'acme', eventName: EVT, kind: 'event', webhookId, attempt: 0 }, jwtService)).toThrow(RangeError);
  });

  it('signs "id.timestamp.body" with HMAC-SHA256 keyed by the UTF-8 bytes of the secret', () => {
    const secret = 'é'.repeat(40) + newSecret();
    const now = new Date('2025-06-01T12:00:00.999Z');
    const headers = lower(signCallback({ body, keys: { secrets: [secret] }, domain: 'acme', eventName: EVT, kind: 'event', webhookId, attempt: 1, now }, jwtService));
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${webhookId}.1748779200.${body}`).digest('base64');
    expect(headers['webhook-timestamp']).toBe('1748779200');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('lists one signature per secret, the current first: a receiver holding either secret verifies', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const headers = lower(signCallback({ body, keys: { secrets: [current, previous] }, domain: 'acme', eventName: EVT, kind: 'event', webhookId, attempt: 1 }, jwtService));
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(standardWebhooksSecret(current)).verify(body, headers)).toBeDefined();
    expect(new Webhook(standardWebhooksSecret(previous)).verify(body, headers)).toBeDefined();
    expect(() => new Webhook(standardWebhooksSecret(newSecret())).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('is refused by standardwebhooks when the body, the id or the timestamp changed', () => {
    const secret = newSecret();
    const headers = lower(signCallback({ body, keys: { secrets: [secret] }, domain: 'acme', eventName: EVT, kind: 'event', webhookId, attempt: 1 }, jwtService));
    const wh = new Webhook(standardWebhooksSecret(secret));
    expect(() => wh.verify(body.replace('42', '43'), headers)).toThrow(WebhookVerificationError);
    expect(() => wh.verify(body, { ...headers, 'webhook-id': 'other' })).toThrow(WebhookVerificationError);
    expect(() => wh.verify(body, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) })).toThrow(WebhookVerificationError);
  });
});

describe('signCallback with a domain signing key (signatureScheme ed25519)', () => {
  const body = sampleBody();
  const webhookId = '5b8f0c1e-8d0a-4f7e-9d43-2f1c2b7a9e10';
  const pair = newSigningKeyPair();
  const signingKey = new DomainSigningKey(pair.kid, pair.publicKey, pair.privateSeed);
  const jwks = { keys: [publicJwk(pair.kid, pair.publicKey)] };

  it('signs v1a (Ed25519 of "id.timestamp.body") and an EdDSA JWT named by the key, checked with node:crypto and jose', async () => {
    const headers = lower(signCallback({ body, keys: { signingKey }, domain: 'acme', eventName: EVT, kind: 'event', webhookId, attempt: 1 }, jwtService));
    const [version, signature] = headers['webhook-signature'].split(',');
    expect(version).toBe('v1a');
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: pair.publicKey }, format: 'jwk' });
    expect(verify(null, Buffer.from(`${webhookId}.${headers['webhook-timestamp']}.${body}`), publicKey, Buffer.from(signature, 'base64'))).toBe(true);
    const token = headers.authorization.slice('Token '.length);
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), { algorithms: ['EdDSA'], issuer: 'tailsync', subject: 'acme' });
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: pair.kid });
    expect(payload).toMatchObject({ evt: EVT, iat: Number(headers['webhook-timestamp']), exp: Number(headers['webhook-timestamp']) + 300 });
    expect(payload.payloadHash).toBe(createHash('sha256').update(body).digest('hex'));
    expect(verifyWebhookRequest({ authorizationHeader: headers.authorization, rawBody: body, publicKeys: jwks }).ok).toBe(true);
    expect(verifyStandardWebhook({ headers, rawBody: body, publicKeys: jwks }).ok).toBe(true);
  });

  it('names the key by its RFC 7638 thumbprint, and signs nothing a shared secret or another key verifies', () => {
    expect(pair.kid).toBe(jwkThumbprint({ crv: 'Ed25519', x: pair.publicKey }));
    const headers = lower(signCallback({ body, keys: { signingKey }, domain: 'acme', eventName: EVT, kind: 'event', webhookId, attempt: 1 }, jwtService));
    const other = newSigningKeyPair();
    const otherSet = { keys: [publicJwk(pair.kid, other.publicKey)] };
    expect(verifyWebhookRequest({ authorizationHeader: headers.authorization, rawBody: body, publicKeys: otherSet })).toMatchObject({ ok: false, step: 2 });
    expect(verifyStandardWebhook({ headers, rawBody: body, publicKeys: otherSet })).toMatchObject({ ok: false, code: 'invalid-signature' });
    expect(verifyStandardWebhook({ headers, rawBody: body, secret: newSecret() })).toMatchObject({ ok: false, code: 'invalid-signature' });
  });
});
