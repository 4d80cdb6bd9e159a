import { createHash, generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { sign as jwtSign } from 'jsonwebtoken';
import { secretId } from './secret-id';
import { newSecret, sampleBody, signWebhook } from './testing/fixtures';
import { verifyWebhookRequest, type WebhookVerificationResult } from './verify';

const now = new Date('2025-06-01T12:00:00.000Z');
const iat = Math.floor(now.getTime() / 1000);
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sha256Hex = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function setup(body = sampleBody()) {
  const secret = newSecret();
  const token = signWebhook({ body, secret, domain: 'acme', eventName: 'Product.RiskAssessmentExecuted', now });
  return { secret, body, token, header: `Token ${token}` };
}

function expectFailure(result: WebhookVerificationResult, step: number, reason?: RegExp) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.step).toBe(step);
  if (reason) expect(result.reason).toMatch(reason);
}

/** A token signed with the secret but with arbitrary claims (what a broken or hostile signer holding the secret could send). */
const signClaims = (claims: object, secret: string, algorithm: 'HS256' | 'HS512' = 'HS256') =>
  jwtSign(claims, Buffer.from(secret, 'utf8'), { algorithm, noTimestamp: true });

describe('verifyWebhookRequest', () => {
  it('accepts what signWebhook produced (string body) and returns the claims and parsed payload', () => {
    const { secret, body, header } = setup();
    const result = verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret, now });
    expect(result).toEqual({
      ok: true,
      claims: {
        payloadHash: sha256Hex(body),
        iat,
        exp: iat + 300,
        jti: expect.any(String),
        iss: 'tailsync',
        sub: 'acme',
        evt: 'Product.RiskAssessmentExecuted',
      },
      payload: JSON.parse(body),
    });
  });

  it('accepts the raw body as a Buffer and as a Uint8Array', () => {
    const { secret, body, header } = setup();
    expect(verifyWebhookRequest({ authorizationHeader: header, rawBody: Buffer.from(body), secret, now }).ok).toBe(true);
    expect(verifyWebhookRequest({ authorizationHeader: header, rawBody: new TextEncoder().encode(body), secret, now }).ok).toBe(true);
  });

  it('treats the auth scheme case-insensitively and tolerates surrounding whitespace', () => {
    const { secret, body, token } = setup();
    expect(verifyWebhookRequest({ authorizationHeader: `  token   ${token} `, rawBody: body, secret, now }).ok).toBe(true);
  });

  it('accepts a token made by an independent signer (jose) with the same claims', async () => {
    const secret = newSecret();
    const body = sampleBody();
    const token = await new SignJWT({ payloadHash: sha256Hex(body), jti: 'x', evt: 'E' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + 300)
      .setIssuer('tailsync')
      .setSubject('acme')
      .sign(new TextEncoder().encode(secret));
    const result = verifyWebhookRequest({ authorizationHeader: `Token ${token}`, rawBody: body, secret, now });
    expect(result.ok).toBe(true);
  });

  it('round-trips with a secret that happens to be PEM text (always used as raw UTF-8 bytes)', () => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const body = sampleBody();
    const token = signWebhook({ body, secret: pem, domain: 'acme', eventName: 'E', now });
    expect(verifyWebhookRequest({ authorizationHeader: `Token ${token}`, rawBody: body, secret: pem, now }).ok).toBe(true);
  });

  it('accepts any of several secrets while rotating, and nothing else', () => {
    const { secret, body, header } = setup();
    const other = newSecret();
    expect(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret: [other, secret], now }).ok).toBe(true);
    expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret: [other, newSecret()], now }), 2);
  });

  it('picks the secret by the token\'s kid: a token naming one secret is not tried with the others', () => {
    const [a, b] = [newSecret(), newSecret()];
    const body = sampleBody();
    const claims = { payloadHash: sha256Hex(body), iat, exp: iat + 300, jti: 'j', iss: 'tailsync', sub: 'acme', evt: 'E' };
    const namesAButSignedWithB = jwtSign(claims, Buffer.from(b, 'utf8'), { algorithm: 'HS256', noTimestamp: true, keyid: secretId(a) });
    expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${namesAButSignedWithB}`, rawBody: body, secret: [a, b], now }), 2);
    const noKid = signClaims(claims, b);
    expect(verifyWebhookRequest({ authorizationHeader: `Token ${noKid}`, rawBody: body, secret: [a, b], now }).ok).toBe(true);
    const unknownKid = jwtSign(claims, Buffer.from(b, 'utf8'), { algorithm: 'HS256', noTimestamp: true, keyid: 'ffffffffffffffff' });
    expect(verifyWebhookRequest({ authorizationHeader: `Token ${unknownKid}`, rawBody: body, secret: [a, b], now }).ok).toBe(true);
  });

  describe('step 1: take the JWT from the Authorization header', () => {
    const { secret, body, token } = setup();
    it.each([
      ['missing header', undefined, /missing/],
      ['null header', null, /missing/],
      ['empty header', '', /missing/],
      ['Bearer scheme', `Bearer ${token}`, /Token <JWT>/],
      ['no scheme', token, /Token <JWT>/],
      ['scheme only', 'Token', /Token <JWT>/],
      ['extra part', `Token ${token} extra`, /Token <JWT>/],
      ['not a JWT', 'Token not-a-jwt', /JWT/],
      ['two segments', 'Token abc.def', /JWT/],
      ['two headers', [`Token ${token}`, `Token ${token}`], /more than one/],
    ])('%s', (_name, authorizationHeader, reason) => {
      expectFailure(verifyWebhookRequest({ authorizationHeader, rawBody: body, secret, now }), 1, reason);
    });

    it('accepts a single-element header array', () => {
      expect(verifyWebhookRequest({ authorizationHeader: [`Token ${token}`], rawBody: body, secret, now }).ok).toBe(true);
    });
  });

  describe('step 2: verify the signature with the shared secret (HS256 only)', () => {
    it('rejects a wrong secret', () => {
      const { body, header } = setup();
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret: newSecret(), now }), 2, /invalid signature/);
    });

    it('rejects a tampered signature', () => {
      const { secret, body, token } = setup();
      const [h, p, s] = token.split('.');
      const flipped = (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${h}.${p}.${flipped}`, rawBody: body, secret, now }), 2);
    });

    it('rejects claims altered after signing (e.g. payloadHash swapped to match another body)', () => {
      const { secret, token } = setup();
      const [h, p, s] = token.split('.');
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      const forgedBody = '{"forged":true}';
      const forged = `${h}.${b64url({ ...claims, payloadHash: sha256Hex(forgedBody) })}.${s}`;
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${forged}`, rawBody: forgedBody, secret, now }), 2);
    });

    it('rejects alg "none" (unsigned token)', () => {
      const { secret, body } = setup();
      const claims = { payloadHash: sha256Hex(body), iat, exp: iat + 300, jti: 'j', iss: 'tailsync', sub: 'acme', evt: 'E' };
      const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${unsigned}`, rawBody: body, secret, now }), 2);
    });

    it('rejects alg "none" even with a signature segment present', () => {
      const { secret, body, token } = setup();
      const [, p, s] = token.split('.');
      const forged = `${b64url({ alg: 'none', typ: 'JWT' })}.${p}.${s}`;
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${forged}`, rawBody: body, secret, now }), 2, /algorithm/);
    });

    it('rejects another HMAC algorithm even with the right secret', () => {
      const { secret, body } = setup();
      const claims = { payloadHash: sha256Hex(body), iat, exp: iat + 300, jti: 'j', iss: 'tailsync', sub: 'acme', evt: 'E' };
      const hs512 = signClaims(claims, secret, 'HS512');
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${hs512}`, rawBody: body, secret, now }), 2, /algorithm/);
    });

    it('rejects an asymmetric alg header (key confusion)', () => {
      const { secret, body, token } = setup();
      const [, p, s] = token.split('.');
      const forged = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${p}.${s}`;
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${forged}`, rawBody: body, secret, now }), 2);
    });

    it('rejects a token whose header is not JSON', () => {
      const { secret, body, token } = setup();
      const [, p, s] = token.split('.');
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token bm90LWpzb24.${p}.${s}`, rawBody: body, secret, now }), 2);
    });
  });

  describe('step 3: check the token has not expired', () => {
    const at = (seconds: number) => new Date((iat + seconds) * 1000);

    it('accepts up to just before exp and rejects from exp on', () => {
      const { secret, body, header } = setup();
      expect(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret, now: at(299) }).ok).toBe(true);
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret, now: at(300) }), 3, /expired/);
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret, now: at(86_400) }), 3, /expired/);
    });

    it('honours clockToleranceSeconds', () => {
      const { secret, body, header } = setup();
      expect(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret, now: at(310), clockToleranceSeconds: 30 }).ok).toBe(true);
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret, now: at(330), clockToleranceSeconds: 30 }), 3);
    });

    it('rejects a token without exp', () => {
      const secret = newSecret();
      const body = '{}';
      const token = signClaims({ payloadHash: sha256Hex(body), iat, jti: 'j', iss: 'tailsync', sub: 'acme', evt: 'E' }, secret);
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${token}`, rawBody: body, secret, now }), 3, /exp/);
    });

    it('reports the signature (step 2) before the expiry when both are wrong', () => {
      const { body, header } = setup();
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret: newSecret(), now: at(1000) }), 2);
    });
  });

  describe('step 4: read the payloadHash claim', () => {
    it.each([
      ['missing', undefined],
      ['not a string', 42],
      ['too short', 'abc123'],
      ['not hex', 'z'.repeat(64)],
    ])('rejects a payloadHash that is %s', (_name, payloadHash) => {
      const secret = newSecret();
      const token = signClaims({ payloadHash, iat, exp: iat + 300, jti: 'j', iss: 'tailsync', sub: 'acme', evt: 'E' }, secret);
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${token}`, rawBody: '{}', secret, now }), 4);
    });
  });

  describe('steps 5–6: hash the raw body and compare', () => {
    it('rejects a tampered body', () => {
      const { secret, body, header } = setup();
      const tampered = body.replace('42', '43');
      expect(tampered).not.toBe(body);
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: tampered, secret, now }), 6, /does not match/);
    });

    it('rejects the same JSON with different bytes (re-serialised, whitespace added)', () => {
      const { secret, body, header } = setup();
      const reserialised = JSON.stringify(JSON.parse(body), null, 2);
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: reserialised, secret, now }), 6);
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: `${body}\n`, secret, now }), 6);
    });

    it('rejects an empty body', () => {
      const { secret, header } = setup();
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: Buffer.alloc(0), secret, now }), 6);
    });

    it('accepts an upper-case hex payloadHash from another signer', () => {
      const secret = newSecret();
      const body = '{"a":1}';
      const token = signClaims({ payloadHash: sha256Hex(body).toUpperCase(), iat, exp: iat + 300, jti: 'j', iss: 'tailsync', sub: 'acme', evt: 'E' }, secret);
      expect(verifyWebhookRequest({ authorizationHeader: `Token ${token}`, rawBody: body, secret, now }).ok).toBe(true);
    });
  });

  describe('step 7: parse the JSON payload', () => {
    it('rejects a correctly signed body that is not JSON', () => {
      const { secret, body, header } = setup('this is not json');
      expectFailure(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret, now }), 7, /JSON/);
    });

    it('rejects a correctly signed body that is not valid UTF-8', () => {
      const secret = newSecret();
      const bytes = Buffer.from([0x22, 0xff, 0xfe, 0x22]); // "\xff\xfe"
      const token = signClaims({ payloadHash: sha256Hex(bytes), iat, exp: iat + 300, jti: 'j', iss: 'tailsync', sub: 'acme', evt: 'E' }, secret);
      expectFailure(verifyWebhookRequest({ authorizationHeader: `Token ${token}`, rawBody: bytes, secret, now }), 7);
    });

    it('returns any JSON value as the payload (the caller validates its shape)', () => {
      const { secret, body, header } = setup('[1,2,3]');
      expect(verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret, now })).toMatchObject({ ok: true, payload: [1, 2, 3] });
    });
  });

  it('throws (a programming error) on an unusable secret or raw body', () => {
    const { body, header } = setup();
    expect(() => verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret: '' })).toThrow(TypeError);
    expect(() => verifyWebhookRequest({ authorizationHeader: header, rawBody: body, secret: [] })).toThrow(TypeError);
    expect(() => verifyWebhookRequest({ authorizationHeader: header, rawBody: { a: 1 } as unknown as string, secret: 'x' })).toThrow(TypeError);
  });
});
