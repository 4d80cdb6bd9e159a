// Type-checked in the empty project as CommonJS (node10, node16, nodenext) and under bundler
// resolution: the package's require() types, and its subpath entries'.
import { RemoteKeySet, sign, verifyWebhookRequest, verifyStandardWebhook, webhookJwksUrl, type SignedWebhook, type TailsyncEvent, type TailsyncEventOf, type WebhookRefusalCode } from '@tailsync/webhooks';
import { webhookVerifier } from '@tailsync/webhooks/express';
import { webhookPreHandler } from '@tailsync/webhooks/fastify';
import { WebhookSignatureGuard } from '@tailsync/webhooks/nest';

const result = verifyWebhookRequest({ authorizationHeader: 'Token x', rawBody: Buffer.from('{}'), secret: 's', testCalls: 'accept' });
const code: WebhookRefusalCode | undefined = result.ok ? undefined : result.code;
const standard = verifyStandardWebhook({ headers: { 'webhook-id': 'a' }, rawBody: '{}', secret: ['s'] });
export const used = [code, standard.ok, webhookVerifier({ secret: 's' }), webhookPreHandler({ getSecret: async () => 's' }), WebhookSignatureGuard];
// A key set from the main entry goes into every helper: one class across the entries.
const keys = new RemoteKeySet(webhookJwksUrl('https://api.tailsync.example', 'acme'));
const signed: SignedWebhook = sign({ payload: { eventId: 'e-1' }, secret: 's' });
export const remote = [webhookVerifier({ publicKeys: keys }), webhookPreHandler({ publicKeys: keys }), new WebhookSignatureGuard(keys), signed.headers.Authorization];
// A receiver's handler typed by the event catalog: the switch narrows on eventName and misses no type.
export function handle(event: TailsyncEvent): string {
  const { eventName } = event;
  switch (eventName) {
    case 'Product.RiskAssessmentExecuted':
      return `${event.domain} ${event.occurredAt}: ${JSON.stringify(event.data['score'])}`;
    default: {
      const unhandled: never = eventName;
      return unhandled;
    }
  }
}
export const handled = result.ok ? handle(result.payload as TailsyncEvent) : undefined;
// @ts-expect-error only the catalog's event names
export type Unknown = TailsyncEventOf<'Product.Unknown'>;
