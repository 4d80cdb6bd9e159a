import { randomBytes } from 'node:crypto';
import { kafkaConnection } from '@tailsync/service-kit';
import { publishRiskAssessments } from '@tailsync/tools/testing';
import { api, newServiceAccount, type TestAccount } from './accounts';
import { principalKafka } from './kafka';
import { eventually } from './eventually';
import { scripts, WebhookReceiver, type ReceiverScript } from './receiver';
import { E2E_PORTS } from './test-stack';

/** Helpers of the webhook e2e files: subscribed domains with real receivers, events on the real broker. */
export const EVT = 'Product.RiskAssessmentExecuted';
/** How the e2e files reach the broker `npm test` started. */
export const testKafka = () => kafkaConnection(process.env);
export const newSecret = () => randomBytes(48).toString('hex'); // 96 characters

const receivers: WebhookReceiver[] = [];
afterAll(() => Promise.all(receivers.splice(0).map((r) => r.close())));

/** A real receiver on 127.0.0.1, closed after the file's tests. */
export async function receiver(script: ReceiverScript = scripts.status(200)): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start(script);
  receivers.push(r);
  return r;
}

export interface Subscribed {
  account: TestAccount;
  receiver: WebhookReceiver;
  secret: string;
}

/** A new service account (so a domain of its own) subscribed to a new receiver. */
export async function subscribed(script: ReceiverScript = scripts.status(200)): Promise<Subscribed> {
  const [account, r] = await Promise.all([newServiceAccount(), receiver(script)]);
  const secret = newSecret();
  const res = await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: secret });
  expect(res.status).toBe(200);
  return { account, receiver: r, secret };
}

export async function publish(domain: string, count = 1, data: Record<string, unknown> = { score: 3, tail: 'N123AB' }, traceparent?: string) {
  return publishRiskAssessments({ kafka: principalKafka('product'), domain, count, data, traceparent });
}

const dispatcherUrl = () => process.env.E2E_DISPATCHER_URL ?? `http://127.0.0.1:${E2E_PORTS['webhook-dispatcher']}`;

/** Events the dispatcher consumed for domains without a subscription (its /metrics). */
async function skippedWithoutSubscription(): Promise<number> {
  const text = await (await fetch(`${dispatcherUrl()}/metrics`)).text();
  return Number(/^webhook_events_skipped_total\{reason="no-subscription"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

/** Events of a domain without a subscription, once the dispatcher has consumed (and skipped) them: they have no delivery. */
export async function publishedBeforeSubscribing(domain: string, count: number) {
  const before = await skippedWithoutSubscription();
  const events = await publish(domain, count);
  await eventually(async () => (await skippedWithoutSubscription()) >= before + count, 20_000);
  return events;
}

/** The domain's delivery of an event once it reached `status`. */
export async function deliveryOf(account: TestAccount, eventId: string, status: string, timeoutMs = 15_000) {
  return eventually(async () => {
    const res = await api(account, 'GET', '/WebhookSubscriptions/Deliveries?limit=200');
    return res.body.items?.find((d: { eventId: string; status: string }) => d.eventId === eventId && d.status === status);
  }, timeoutMs);
}
