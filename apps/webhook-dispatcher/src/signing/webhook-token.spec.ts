import { createHash, generateKeyPairSync } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { secretId } from '@tailsync/webhooks';
import { signWebhook } from './webhook-token';
import { jwtService, newSecret, sampleBody } from './signing.test-support';

const key = (secret: string) => new TextEncoder().encode(secret);
const sha256Hex = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

describe('signWebhook, checked independently with jose', () => {
  const now = new Date('2025-06-01T12:00:00.750Z');
  const iat = Math.floor(now.getTime() / 1000);

  it('produces an HS256 JWT that jose verifies with the UTF-8 bytes of the secret and carries every claim exactly', async () => {
    const secret = newSecret();
    const body = sampleBody();
    const token = signWebhook({ body, secret, domain: 'acme', eventName: 'Product.RiskAssessmentExecuted', kind: 'event', now }, jwtService);

    const { payload, protectedHeader } = await jwtVerify(token, key(secret), { algorithms: ['HS256'], currentDate: now });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT', kid: secretId(secret) });
    expect(Object.keys(payload).sort()).toEqual(['evt', 'exp', 'iat', 'iss', 'jti', 'payloadHash', 'sub']);
    expect(payload.iat).toBe(iat);
    expect(payload.exp).toBe(iat + 300);
    expect(payload.iss).toBe('tailsync');
    expect(payload.sub).toBe('acme');
    expect(payload.evt).toBe('Product.RiskAssessmentExecuted');
    expect(payload.payloadHash).toMatch(/^[0-9a-f]{64}$/);
    expect(payload.payloadHash).toBe(sha256Hex(body));
    expect(payload.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('marks a Test call with test: true, and only a Test call', async () => {
    const secret = newSecret();
    const claimsOf = async (kind: 'event' | 'test') =>
      (await jwtVerify(signWebhook({ body: '{}', secret, domain: 'acme', eventName: 'E', kind, now }, jwtService), key(secret), { currentDate: now })).payload;
    expect((await claimsOf('test')).test).toBe(true);
    expect(await claimsOf('event')).not.toHaveProperty('test');
  });

  it('names the secret in kid: 16 hex of SHA-256 of "tailsync-secret:" + secret', () => {
    expect(secretId('s'.repeat(64))).toBe('32db264612259105'); // computed with Python's hashlib
    expect(secretId(newSecret())).toMatch(/^[0-9a-f]{16}$/);
  });

  it('uses a fresh jti (and token) on every call', async () => {
    const secret = newSecret();
    const input = { body: '{}', secret, domain: 'acme', eventName: 'Product.RiskAssessmentExecuted', kind: 'event' as const, now };
    const tokens = Array.from({ length: 20 }, () => signWebhook(input, jwtService));
    const jtis = await Promise.all(
      tokens.map(async (t) => (await jwtVerify(t, key(secret), { algorithms: ['HS256'], currentDate: now })).payload.jti),
    );
    expect(new Set(tokens).size).toBe(20);
    expect(new Set(jtis).size).toBe(20);
  });

  it('keys the HMAC with the UTF-8 bytes of a non-ASCII secret', async () => {
    const secret = 'ß'.repeat(40) + newSecret();
    const token = signWebhook({ body: '{}', secret, domain: 'acme', eventName: 'E', kind: 'event', now }, jwtService);
    await expect(jwtVerify(token, key(secret), { algorithms: ['HS256'], currentDate: now })).resolves.toBeDefined();
    const latin1 = new Uint8Array(Buffer.from(secret, 'latin1'));
    await expect(jwtVerify(token, latin1, { algorithms: ['HS256'], currentDate: now })).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    );
  });

  it('treats a secret that happens to look like a PEM private key as plain UTF-8 bytes', async () => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(pem.length).toBeGreaterThanOrEqual(64);
    const token = signWebhook({ body: '{}', secret: pem, domain: 'acme', eventName: 'E', kind: 'event', now }, jwtService);
    await expect(jwtVerify(token, key(pem), { algorithms: ['HS256'], currentDate: now })).resolves.toBeDefined();
  });

  it('is rejected by jose with another secret', async () => {
    const token = signWebhook({ body: '{}', secret: newSecret(), domain: 'acme', eventName: 'E', kind: 'event', now }, jwtService);
    await expect(jwtVerify(token, key(newSecret()), { algorithms: ['HS256'], currentDate: now })).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    );
  });

  it('expires 300 s after iat according to jose', async () => {
    const secret = newSecret();
    const token = signWebhook({ body: '{}', secret, domain: 'acme', eventName: 'E', kind: 'event', now }, jwtService);
    const at = (seconds: number) => new Date((iat + seconds) * 1000);
    await expect(jwtVerify(token, key(secret), { algorithms: ['HS256'], currentDate: at(299) })).resolves.toBeDefined();
    await expect(jwtVerify(token, key(secret), { algorithms: ['HS256'], currentDate: at(300) })).rejects.toBeInstanceOf(
      errors.JWTExpired,
    );
  });

  it('defaults iat to the current time', () => {
    const before = Math.floor(Date.now() / 1000);
    const token = signWebhook({ body: '{}', secret: newSecret(), domain: 'acme', eventName: 'E', kind: 'event' }, jwtService);
    const claims = jwtService.decode(token) as { iat: number; exp: number };
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(claims.exp).toBe(claims.iat + 300);
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
  });

  it('refuses unusable input', () => {
    const ok = { body: '{}', secret: newSecret(), domain: 'acme', eventName: 'E', kind: 'event' as const };
    expect(() => signWebhook({ ...ok, secret: '' }, jwtService)).toThrow(/secret/);
    expect(() => signWebhook({ ...ok, domain: '' }, jwtService)).toThrow(/domain/);
    expect(() => signWebhook({ ...ok, eventName: '' }, jwtService)).toThrow(/eventName/);
    expect(() => signWebhook({ ...ok, body: { a: 1 } as unknown as string }, jwtService)).toThrow(/body/);
    expect(() => signWebhook({ ...ok, now: new Date(NaN) }, jwtService)).toThrow(/now/);
  });

  it('is compatible with tokens jose itself would build (sanity check of the claim layout)', async () => {
    const secret = newSecret();
    const body = sampleBody();
    const ours = signWebhook({ body, secret, domain: 'acme', eventName: 'E', kind: 'event', now }, jwtService);
    const ourClaims = (await jwtVerify(ours, key(secret), { currentDate: now })).payload;
    const theirs = await new SignJWT({ ...ourClaims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: secretId(secret) }).sign(key(secret));
    // Same header, same claims, same key → byte-identical token.
    expect(theirs).toBe(ours);
  });
});
