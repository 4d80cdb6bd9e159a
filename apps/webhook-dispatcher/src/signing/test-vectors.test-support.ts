import { createHmac } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { jwkThumbprint, type WebhookJwks } from '@tailsync/webhooks';
import { signCallback, type SignCallbackInput } from './callback-signer';
import { DomainSigningKey, publicJwk } from './domain-signing-key';

/**
 * The shared test vectors (libs/webhook-signing/vectors/*.json), made by the dispatcher's own
 * signer from pinned inputs: the receiver packages (npm and PyPI) must reach each vector's verdict,
 * and the signer spec checks the committed files are exactly what the signer makes today.
 * Refresh after a deliberate change: `node tools/run.js apps/webhook-dispatcher/src/signing/write-test-vectors.ts`.
 */
export interface TestVector {
  name: string;
  /** The secrets the receiver holds (the current one first), for `hmac-sha256`… */
  secrets?: string[];
  /** …or the JWK Set it fetched, for `ed25519` (a vector has one or the other). */
  publicKeys?: WebhookJwks;
  /** The receiver's clock, Unix seconds. */
  now: number;
  options: { testCalls: 'refuse' | 'accept' };
  headers: Record<string, string>;
  /** The body exactly as received (UTF-8 text). */
  body: string;
  expect: {
    /** `verifyWebhookRequest` / `verify_webhook`: the JWT's seven steps. */
    token: { ok: true } | { ok: false; step: number; code: string };
    /** `verifyStandardWebhook` / `verify_standard_webhook`. */
    standardWebhooks: { ok: true } | { ok: false; code: string };
  };
}

export interface TestVectorFile {
  about: string;
  vectors: TestVector[];
}

const T0 = 1767225600; // 2026-01-01T00:00:00Z
const CURRENT = 'vectors-current-secret-7f3c9a1e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d';
const PREVIOUS = 'vectors-previous-secret-0a2c4e6b8d1f3a5c7e9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f';
const UNICODE = 'clé-partagée-✈-' + 'e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8';
const EVENT_ID = '0b6f1a52-6c1e-4b7e-9a59-3f1d2c8e7a40';
const BODY = JSON.stringify({
  eventId: EVENT_ID,
  eventName: 'Product.RiskAssessmentExecuted',
  occurredAt: '2025-12-31T23:59:58.000Z',
  domain: 'acme',
  data: { score: 42, tail: 'N123AB', note: 'Zürich ✈ 東京' },
});
const OK = { ok: true } as const;
const jwt = new JwtService();

type Signed = Pick<TestVector, 'headers' | 'body'>;

function sign(input: Partial<SignCallbackInput> & { jti: string }): Signed {
  const full: SignCallbackInput = {
    body: BODY, keys: { secrets: [CURRENT] }, domain: 'acme', eventName: 'Product.RiskAssessmentExecuted', kind: 'event',
    webhookId: EVENT_ID, attempt: 1, now: new Date(T0 * 1000), ...input,
  };
  return { headers: signCallback(full, jwt), body: full.body };
}

const vector = (name: string, signed: Signed, expect: TestVector['expect'], receiver: Partial<Pick<TestVector, 'secrets' | 'now' | 'options'>> = {}): TestVector => ({
  name, secrets: receiver.secrets ?? [CURRENT], now: receiver.now ?? T0 + 1, options: receiver.options ?? { testCalls: 'refuse' }, ...signed, expect,
});
const withHeaders = (signed: Signed, headers: Record<string, string | undefined>): Signed => {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...signed.headers, ...headers })) if (v !== undefined) merged[k] = v;
  return { ...signed, headers: merged };
};
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token signed with the secret but made by hand: what a hostile or broken signer could send. */
const handMade = (header: object, claims: object, secret: string) => {
  const input = `${b64url(header)}.${b64url(claims)}`;
  return `${input}.${createHmac('sha256', Buffer.from(secret, 'utf8')).update(input).digest('base64url')}`;
};
const claimsOf = (signed: Signed) => JSON.parse(Buffer.from(signed.headers.Authorization.split('.')[1], 'base64url').toString('utf8'));

export function testVectorFiles(): Record<string, TestVectorFile> {
  const event = sign({ jti: '9e0c8d6a-1b2c-4d3e-8f4a-5b6c7d8e9f01' });
  const unicode = sign({ keys: { secrets: [UNICODE] }, attempt: 3, jti: '9e0c8d6a-1b2c-4d3e-8f4a-5b6c7d8e9f02' });
  const rotating = sign({ keys: { secrets: [CURRENT, PREVIOUS] }, jti: '9e0c8d6a-1b2c-4d3e-8f4a-5b6c7d8e9f03' });
  const test = sign({ kind: 'test', webhookId: 'test_5d1c0e4f-2a3b-4c5d-8e6f-7a8b9c0d1e2f', body: '{"hello":"test call"}', jti: '9e0c8d6a-1b2c-4d3e-8f4a-5b6c7d8e9f04' });
  const token = (s: Signed) => s.headers.Authorization.slice('Token '.length);
  const [h, , sig] = token(event).split('.');

  return {
    'ed25519.json': ed25519Vectors(event),
    'events.json': {
      about: 'Event callbacks as the dispatcher signs them: every receiver accepts them.',
      vectors: [
        vector('an event, one secret', event, { token: OK, standardWebhooks: OK }),
        vector('a secret and a body that are not ASCII, third attempt', unicode, { token: OK, standardWebhooks: OK }, { secrets: [UNICODE] }),
        vector('the receiver holds another secret too (kid picks the right one)', event, { token: OK, standardWebhooks: OK }, { secrets: [PREVIOUS, CURRENT] }),
        vector('another secret than the one that signed', event, { token: { ok: false, step: 2, code: 'invalid-signature' }, standardWebhooks: { ok: false, code: 'invalid-signature' } }, { secrets: [PREVIOUS] }),
      ],
    },
    'rotation.json': {
      about: 'A secret rotated: for the grace period both secrets sign webhook-signature, the JWT only the new one.',
      vectors: [
        vector('receiver holds both secrets', rotating, { token: OK, standardWebhooks: OK }, { secrets: [CURRENT, PREVIOUS] }),
        vector('receiver already holds only the new secret', rotating, { token: OK, standardWebhooks: OK }, { secrets: [CURRENT] }),
        vector('receiver still holds only the previous secret: the signature passes, the JWT does not', rotating, { token: { ok: false, step: 2, code: 'invalid-signature' }, standardWebhooks: OK }, { secrets: [PREVIOUS] }),
        vector('after the grace period, a receiver with only the previous secret', event, { token: { ok: false, step: 2, code: 'invalid-signature' }, standardWebhooks: { ok: false, code: 'invalid-signature' } }, { secrets: [PREVIOUS] }),
      ],
    },
    'tampering.json': {
      about: 'Callbacks changed on the way, or forged: refused, at the step that catches it.',
      vectors: [
        vector('body changed', { ...event, body: event.body.replace('"score":42', '"score":43') }, { token: { ok: false, step: 6, code: 'payload-mismatch' }, standardWebhooks: { ok: false, code: 'invalid-signature' } }),
        vector('webhook-id changed (the JWT does not cover it; the signature does)', withHeaders(event, { 'Webhook-Id': '11111111-2222-4333-8444-555555555555' }), { token: OK, standardWebhooks: { ok: false, code: 'invalid-signature' } }),
        vector('webhook-timestamp changed', withHeaders(event, { 'Webhook-Timestamp': String(T0 - 1) }), { token: OK, standardWebhooks: { ok: false, code: 'invalid-signature' } }),
        vector('JWT claims changed, signature kept', withHeaders(event, { Authorization: `Token ${h}.${b64url({ ...claimsOf(event), sub: 'other' })}.${sig}` }), { token: { ok: false, step: 2, code: 'invalid-signature' }, standardWebhooks: OK }),
        vector('alg none', withHeaders(event, { Authorization: `Token ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claimsOf(event))}.` }), { token: { ok: false, step: 2, code: 'invalid-signature' }, standardWebhooks: OK }),
        vector('HS512 with the right secret', withHeaders(event, { Authorization: `Token ${handMade({ alg: 'HS512', typ: 'JWT' }, claimsOf(event), CURRENT)}` }), { token: { ok: false, step: 2, code: 'invalid-signature' }, standardWebhooks: OK }),
        vector('a token without payloadHash, signed with the secret', withHeaders(event, { Authorization: `Token ${handMade({ alg: 'HS256', typ: 'JWT' }, { ...claimsOf(event), payloadHash: undefined }, CURRENT)}` }), { token: { ok: false, step: 4, code: 'missing-payload-hash' }, standardWebhooks: OK }),
        vector('no Authorization header', withHeaders(event, { Authorization: undefined }), { token: { ok: false, step: 1, code: 'missing-token' }, standardWebhooks: OK }),
        vector('Bearer instead of Token', withHeaders(event, { Authorization: `Bearer ${token(event)}` }), { token: { ok: false, step: 1, code: 'missing-token' }, standardWebhooks: OK }),
        vector('no webhook-signature header', withHeaders(event, { 'Webhook-Signature': undefined }), { token: OK, standardWebhooks: { ok: false, code: 'missing-headers' } }),
        vector('a v1a signature only (another scheme)', withHeaders(event, { 'Webhook-Signature': event.headers['Webhook-Signature'].replace('v1,', 'v1a,') }), { token: OK, standardWebhooks: { ok: false, code: 'invalid-signature' } }),
      ],
    },
    'expiry.json': {
      about: 'The JWT expires 300 s after iat; the Standard Webhooks timestamp is accepted within 300 s of the clock.',
      vectors: [
        vector('299 s later', event, { token: OK, standardWebhooks: OK }, { now: T0 + 299 }),
        vector('300 s later: the token has expired', event, { token: { ok: false, step: 3, code: 'expired' }, standardWebhooks: OK }, { now: T0 + 300 }),
        vector('301 s later', event, { token: { ok: false, step: 3, code: 'expired' }, standardWebhooks: { ok: false, code: 'invalid-timestamp' } }, { now: T0 + 301 }),
        vector('the receiver clock 301 s behind', event, { token: OK, standardWebhooks: { ok: false, code: 'invalid-timestamp' } }, { now: T0 - 301 }),
      ],
    },
    'test-calls.json': {
      about: 'A Test call: test: true in the JWT, a webhook-id starting test_. Receivers refuse it unless told to accept test calls.',
      vectors: [
        vector('refused by default', test, { token: { ok: false, step: 7, code: 'test-call' }, standardWebhooks: { ok: false, code: 'test-call' } }),
        vector('accepted when the receiver accepts test calls', test, { token: OK, standardWebhooks: OK }, { options: { testCalls: 'accept' } }),
        vector('a test call carrying an event’s signature header', withHeaders(test, { 'Webhook-Signature': event.headers['Webhook-Signature'] }), { token: { ok: false, step: 7, code: 'test-call' }, standardWebhooks: { ok: false, code: 'invalid-signature' } }),
      ],
    },
  };
}

/*
 * Ed25519 (`signatureScheme: "ed25519"`): two pinned key pairs (RFC 8032 signatures are
 * deterministic, so the vectors are reproducible). The receiver holds the domain's JWK Set.
 */
const KEY_A = { publicKey: 'Pk_lSjMurHdyHP51itiehDJb4V0c7Z27EcQpqCCwrP8', privateSeed: 'IbT3Z7tgOdaFBw46M8pGiPvfEfWlL1bhGhkqiCBeN2o' };
const KEY_B = { publicKey: 'BYCXNV1z2ajRKUb_GebuJlFwH6D4NOOetG3D_kpQbqo', privateSeed: 'eCNwe5ia6MrLbC1hERLHZBRB5j-ZVy2bs7ZaFOIE4YE' };

function ed25519Vectors(hmacEvent: Signed): TestVectorFile {
  const [a, b] = [KEY_A, KEY_B].map(({ publicKey, privateSeed }) => {
    const kid = jwkThumbprint({ crv: 'Ed25519', x: publicKey });
    return { kid, jwk: publicJwk(kid, publicKey), key: new DomainSigningKey(kid, publicKey, privateSeed) };
  });
  const setA: WebhookJwks = { keys: [a.jwk] };
  const rotatingSet: WebhookJwks = { keys: [a.jwk, b.jwk] };
  const event = sign({ keys: { signingKey: a.key }, jti: '9e0c8d6a-1b2c-4d3e-8f4a-5b6c7d8e9f11' });
  const byB = sign({ keys: { signingKey: b.key }, jti: '9e0c8d6a-1b2c-4d3e-8f4a-5b6c7d8e9f12' });
  const test = sign({ keys: { signingKey: a.key }, kind: 'test', webhookId: 'test_6e2d1f50-3b4c-4d6e-9f70-8b9c0d1e2f30', body: '{"hello":"test call"}', jti: '9e0c8d6a-1b2c-4d3e-8f4a-5b6c7d8e9f13' });
  const [h, , sig] = event.headers.Authorization.slice('Token '.length).split('.');
  const keyVector = (name: string, signed: Signed, expect: TestVector['expect'], receiver: Partial<Pick<TestVector, 'publicKeys' | 'now' | 'options'>> = {}): TestVector => {
    const { secrets: _hmac, ...rest } = vector(name, signed, expect, receiver);
    return { ...rest, publicKeys: receiver.publicKeys ?? setA };
  };
  const refusedToken = { ok: false, step: 2, code: 'invalid-signature' } as const;
  const refusedSignature = { ok: false, code: 'invalid-signature' } as const;
  return {
    about: 'signatureScheme ed25519: an EdDSA JWT and a v1a signature by the domain key; the receiver holds the JWK Set (publicKeys).',
    vectors: [
      keyVector('an event signed by the domain key', event, { token: OK, standardWebhooks: OK }),
      keyVector('during a rotation the set holds both keys: the kid picks the one that signed', byB, { token: OK, standardWebhooks: OK }, { publicKeys: rotatingSet }),
      keyVector('signed by a key the set does not hold yet (fetch the set again)', byB, { token: refusedToken, standardWebhooks: refusedSignature }),
      keyVector('body changed', { ...event, body: event.body.replace('"score":42', '"score":43') }, { token: { ok: false, step: 6, code: 'payload-mismatch' }, standardWebhooks: refusedSignature }),
      keyVector('webhook-timestamp changed', withHeaders(event, { 'Webhook-Timestamp': String(T0 - 1) }), { token: OK, standardWebhooks: refusedSignature }),
      keyVector('JWT claims changed, signature kept', withHeaders(event, { Authorization: `Token ${h}.${b64url({ ...claimsOf(event), sub: 'other' })}.${sig}` }), { token: refusedToken, standardWebhooks: OK }),
      keyVector('HS256 keyed by the public key bytes (algorithm confusion)', withHeaders(event, { Authorization: `Token ${handMade({ alg: 'HS256', typ: 'JWT', kid: a.kid }, claimsOf(event), a.jwk.x as string)}` }), { token: refusedToken, standardWebhooks: OK }),
      keyVector('alg none', withHeaders(event, { Authorization: `Token ${b64url({ alg: 'none', typ: 'JWT', kid: a.kid })}.${b64url(claimsOf(event))}.` }), { token: refusedToken, standardWebhooks: OK }),
      keyVector('an HMAC callback offered to a public-key receiver', hmacEvent, { token: refusedToken, standardWebhooks: refusedSignature }),
      keyVector('300 s later: the token has expired', event, { token: { ok: false, step: 3, code: 'expired' }, standardWebhooks: OK }, { now: T0 + 300 }),
      keyVector('a Test call, refused by default', test, { token: { ok: false, step: 7, code: 'test-call' }, standardWebhooks: { ok: false, code: 'test-call' } }),
      keyVector('a Test call, accepted when asked', test, { token: OK, standardWebhooks: OK }, { options: { testCalls: 'accept' } }),
    ],
  };
}
