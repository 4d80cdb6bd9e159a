// Type-checked in the empty project as CommonJS: the package's require() types.
import { verifyWebhookRequest, verifyStandardWebhook, type WebhookRefusalCode } from '@tailsync/webhooks';
import { webhookVerifier } from '@tailsync/webhooks/express';
import { webhookPreHandler } from '@tailsync/webhooks/fastify';
import { WebhookSignatureGuard } from '@tailsync/webhooks/nest';

const result = verifyWebhookRequest({ authorizationHeader: 'Token x', rawBody: Buffer.from('{}'), secret: 's', testCalls: 'accept' });
const code: WebhookRefusalCode | undefined = result.ok ? undefined : result.code;
const standard = verifyStandardWebhook({ headers: { 'webhook-id': 'a' }, rawBody: '{}', secret: ['s'] });
export const used = [code, standard.ok, webhookVerifier({ secret: 's' }), webhookPreHandler({ getSecret: async () => 's' }), WebhookSignatureGuard];
