import { generateKeyPairSync } from 'node:crypto';
import { importJWK, jwtVerify } from 'jose';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { jwkThumbprint } from './public-keys';
import { sign } from './sign';
import { standardWebhooksSecret, verifyStandardWebhook } from './standard-webhooks';
import { verifyWebhookRequest } from './verify';
import { newSecret, sampleBody } from './testing/fixtures';

/** sign(): a callback as the dispatcher makes it, for receivers testing their own handlers. */
describe('sign', () => {
  const event = JSON.parse(sampleBody()) as { eventId: string; eventName: string; domain: string };

  it('signs with the shared secret: our verifiers, standardwebhooks and jose all accept it', async () => {
    const secret = newSecret();
    const { body, headers } = sign({ payload: event, secret });
    expect(body).toBe(JSON.stringify(event));
    expect(headers['Webhook-Id']).toBe(event.eventId);
    const token = verifyWebhookRequest({ authorizationHeader: headers.Authorization, rawBody: body, secret });
    expect(token).toMatchObject({ ok: true, payload: event, claims: { iss: 'tailsync', sub: 'acme', evt: 'Product.RiskAssessmentExecuted' } });
    expect(verifyStandardWebhook({ headers, rawBody: body, secret })).toMatchObject({ ok: true, webhookId: event.eventId });
    expect(new Webhook(standardWebhooksSecret(secret)).verify(body, headers)).toEqual(event);
    expect(() => new Webhook(standardWebhooksSecret(newSecret())).verify(body, headers)).toThrow(WebhookVerificationError);
    const { protectedHeader } = await jwtVerify(headers.Authorization.split(' ')[1], new TextEncoder().encode(secret), { issuer: 'tailsync' });
    expect(protectedHeader.alg).toBe('HS256');
  });

  it('signs with an Ed25519 key: verified against the public JWK, the kid its thumbprint', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const jwk = publicKey.export({ format: 'jwk' });
    const publicKeys = { keys: [{ ...jwk, kid: jwkThumbprint(jwk), use: 'sig', alg: 'EdDSA' } as { kty: string }] };
    for (const key of [privateKey, privateKey.export({ format: 'jwk' })]) {
      const { body, headers } = sign({ payload: sampleBody(), privateKey: key });
      expect(verifyWebhookRequest({ authorizationHeader: headers.Authorization, rawBody: body, publicKeys })).toMatchObject({ ok: true });
      expect(verifyStandardWebhook({ headers, rawBody: body, publicKeys })).toMatchObject({ ok: true });
      expect(headers['Webhook-Signature']).toMatch(/^v1a,/);
      const { protectedHeader } = await jwtVerify(headers.Authorization.split(' ')[1], await importJWK(jwk, 'EdDSA'));
      expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: jwkThumbprint(jwk) });
    }
  });

  it('makes Test calls the verifiers refuse unless accepted', () => {
    const secret = newSecret();
    const { body, headers } = sign({ payload: event, secret, kind: 'test' });
    expect(headers['Webhook-Id']).toMatch(/^test_/);
    expect(verifyWebhookRequest({ authorizationHeader: headers.Authorization, rawBody: body, secret })).toMatchObject({ ok: false, code: 'test-call' });
    expect(verifyWebhookRequest({ authorizationHeader: headers.Authorization, rawBody: body, secret, testCalls: 'accept' })).toMatchObject({ ok: true, claims: { test: true } });
  });

  it('signs at the given time, so a receiver can test expiry', () => {
    const secret = newSecret();
    const { body, headers } = sign({ payload: event, secret, now: new Date(Date.now() - 301_000) });
    expect(verifyWebhookRequest({ authorizationHeader: headers.Authorization, rawBody: body, secret })).toMatchObject({ ok: false, code: 'expired' });
  });

  it('refuses to sign without exactly one key', () => {
    expect(() => sign({ payload: event })).toThrow('pass exactly one of secret and privateKey');
    expect(() => sign({ payload: event, secret: '' })).toThrow('non-empty');
    expect(() => sign({ payload: event, privateKey: generateKeyPairSync('x25519').privateKey })).toThrow('private Ed25519 key');
  });
});
