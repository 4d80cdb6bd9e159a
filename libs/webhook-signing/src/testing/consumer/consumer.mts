// Type-checked in the empty project as an ES module (node16, nodenext): the package's import types.
import { generateKeyPairSync } from 'node:crypto';
import { RemoteKeySet, sign, TEST_WEBHOOK_ID_PREFIX, verifyWebhookRequest, type VerifiedWebhook, type TailsyncEventName, type TailsyncEventOf } from '@tailsync/webhooks';
import { webhookVerifier } from '@tailsync/webhooks/express';

const result = verifyWebhookRequest({ authorizationHeader: undefined, rawBody: '{}', secret: 's' });
const verified: VerifiedWebhook | undefined = result.ok ? { claims: result.claims, payload: result.payload } : undefined;
export const used = [TEST_WEBHOOK_ID_PREFIX, verified?.claims.test, webhookVerifier({ secret: ['a', 'b'], clockToleranceSeconds: 5 })];
export const signed = sign({ payload: '{}', privateKey: generateKeyPairSync('ed25519').privateKey, kind: 'test' }).headers['Webhook-Signature'];
export const helper = webhookVerifier({ publicKeys: new RemoteKeySet('https://api.tailsync.example/.well-known/webhooks/jwks.json?domain=acme') });
// The event catalog from the import types: one event type's body, built as a receiver's test would.
export const event: TailsyncEventOf<'Product.RiskAssessmentExecuted'> = { eventId: 'e-1', eventName: 'Product.RiskAssessmentExecuted', occurredAt: '2026-01-01T00:00:00Z', domain: 'acme', data: { score: 3 } };
export const names: TailsyncEventName[] = [event.eventName];
