// Type-checked in the empty project as an ES module (node16, nodenext): the package's import types.
import { generateKeyPairSync } from 'node:crypto';
import { RemoteKeySet, sign, TEST_WEBHOOK_ID_PREFIX, verifyWebhookRequest, type VerifiedWebhook } from '@tailsync/webhooks';
import { webhookVerifier } from '@tailsync/webhooks/express';

const result = verifyWebhookRequest({ authorizationHeader: undefined, rawBody: '{}', secret: 's' });
const verified: VerifiedWebhook | undefined = result.ok ? { claims: result.claims, payload: result.payload } : undefined;
export const used = [TEST_WEBHOOK_ID_PREFIX, verified?.claims.test, webhookVerifier({ secret: ['a', 'b'], clockToleranceSeconds: 5 })];
export const signed = sign({ payload: '{}', privateKey: generateKeyPairSync('ed25519').privateKey, kind: 'test' }).headers['Webhook-Signature'];
export const helper = webhookVerifier({ publicKeys: new RemoteKeySet('https://api.tailsync.example/.well-known/webhooks/jwks.json?domain=acme') });
