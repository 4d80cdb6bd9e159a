import { createHash, createSecretKey, randomBytes, randomUUID } from 'node:crypto';
import { sign } from 'jsonwebtoken';
import { secretId } from '../secret-id';

/** A 64-byte random secret as 128 hex characters (within the 64–1024 range). */
export const newSecret = (): string => randomBytes(64).toString('hex');

export const sampleBody = (): string =>
  JSON.stringify({
    eventId: '5b8f0c1e-8d0a-4f7e-9d43-2f1c2b7a9e10',
    eventName: 'Product.RiskAssessmentExecuted',
    occurredAt: '2025-01-02T03:04:05.000Z',
    domain: 'acme',
    data: { score: 42, tail: 'N123AB', note: 'Zürich ✈' },
  });

/**
 * A callback token made as the dispatcher makes it, here with jsonwebtoken (the dispatcher's own
 * signer is held to the same bytes by the shared vectors in ../../vectors).
 */
export function signWebhook(input: { body: string; secret: string; domain: string; eventName: string; now?: Date; test?: true }): string {
  const iat = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const claims = {
    payloadHash: createHash('sha256').update(input.body, 'utf8').digest('hex'),
    iat, exp: iat + 300, jti: randomUUID(), iss: 'tailsync', sub: input.domain, evt: input.eventName,
    ...(input.test ? { test: true } : {}),
  };
  return sign(claims, createSecretKey(Buffer.from(input.secret, 'utf8')), { algorithm: 'HS256', keyid: secretId(input.secret) });
}

export const webhookHeaders = ({ token, eventId, attempt }: { token: string; eventId: string; attempt: number }): Record<string, string> => ({
  'Content-Type': 'application/json',
  Authorization: `Token ${token}`,
  'User-Agent': 'tailsync-webhooks/15.4.9707.25929',
  'Webhook-Id': eventId,
  'Webhook-Attempt': String(attempt),
});
