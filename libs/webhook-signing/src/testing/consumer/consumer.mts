// Type-checked in the empty project as an ES module: the package's import types.
import { TEST_WEBHOOK_ID_PREFIX, verifyWebhookRequest, type VerifiedWebhook } from '@tailsync/webhooks';
import { webhookVerifier } from '@tailsync/webhooks/express';

const result = verifyWebhookRequest({ authorizationHeader: undefined, rawBody: '{}', secret: 's' });
const verified: VerifiedWebhook | undefined = result.ok ? { claims: result.claims, payload: result.payload } : undefined;
export const used = [TEST_WEBHOOK_ID_PREFIX, verified?.claims.test, webhookVerifier({ secret: ['a', 'b'], clockToleranceSeconds: 5 })];
