/**
 * `ordering: "fifo"` end to end: events published on `product.risk-assessment-executed`, two
 * dispatcher copies of their own (the shared one is killed for the time of this file, and put back
 * at the end), a real receiver, and the copy running an attempt killed (SIGKILL) in the middle of it.
 * A 1 s attempt timeout keeps the dead copy's lease short (2 × 1 s + 5 s).
 */
import type { AppProcess } from '@tailsync/stack';
import { Pool } from 'pg';
import { publishRiskAssessments } from '@tailsync/tools/testing';
import { arrivalOrder } from '@tailsync/webhooks/testing';
import { api, newServiceAccount } from './support/accounts';
import { eventually } from './support/eventually';
import { principalKafka } from './support/kafka';
import { WebhookReceiver } from './support/receiver';
import { baseUrl, E2E_GRPC_PORTS, E2E_PORTS, killSharedApp, replaceSharedApp, startApp, waitForHttp } from './support/test-stack';

const EVT = 'Product.RiskAssessmentExecuted';
const FAST = { WEBHOOK_RETRY_DELAYS_MS: '300,300', WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000' };
const SECOND_HTTP_PORT = 13012;

const copies = new Map<string, AppProcess>();
let receiver: WebhookReceiver | undefined;
let db: Pool;

async function startCopy(instance: string, httpPort: number, grpcPort: number): Promise<void> {
  const app = startApp('webhook-dispatcher', instance, { ...FAST, WEBHOOK_DISPATCHER_HTTP_PORT: String(httpPort), WEBHOOK_DISPATCHER_GRPC_PORT: String(grpcPort) });
  copies.set(instance, app);
  await waitForHttp(`http://127.0.0.1:${httpPort}/health/ready`, 60_000, [app]);
}

/** The copy holding the lease of the domain's delivery of `eventId` (its owner is `<instance>:<pid>`). */
async function leaseHolder(domain: string, eventId: string): Promise<string> {
  const { rows } = await db.query<{ owner: string | null }>('select lease_owner as owner from webhook_deliveries where domain = $1 and event_id = $2', [domain, eventId]);
  const instance = rows[0]?.owner?.split(':')[0];
  if (!instance || !copies.has(instance)) throw new Error(`no copy of this file holds the lease (owner ${rows[0]?.owner ?? 'none'})`);
  return instance;
}

beforeAll(async () => {
  db = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  killSharedApp('webhook-dispatcher');
  await Promise.all([
    startCopy('dispatcher-fifo-a', E2E_PORTS['webhook-dispatcher'], E2E_GRPC_PORTS['webhook-dispatcher'][0]),
    startCopy('dispatcher-fifo-b', SECOND_HTTP_PORT, E2E_GRPC_PORTS['webhook-dispatcher'][1]),
  ]);
  await waitForHttp(`${baseUrl()}/health/ready`, 60_000, [...copies.values()]);
}, 120_000);

afterAll(async () => {
  await Promise.all([...copies.values()].map((c) => c.stop()));
  await receiver?.close();
  await db?.end();
  await replaceSharedApp('webhook-dispatcher');
}, 90_000);

describe('ordering "fifo" with two dispatcher copies, one killed mid-way', () => {
  it('a receiver that fails the first of 20 events twice receives all 20 in the topic order', async () => {
    const account = await newServiceAccount();
    const ids: string[] = [];
    let hung = false;
    // The first event: 500 on attempts 1 and 2. The ninth: its first request is never answered (its copy is killed meanwhile).
    receiver = await WebhookReceiver.start((r) => {
      const id = r.headers['webhook-id'];
      if (id === ids[0] && Number(r.headers['webhook-attempt']) <= 2) return { status: 500 };
      if (id === ids[8] && !hung) {
        hung = true;
        return { hang: true };
      }
      return { status: 200 };
    });
    const saved = await api(account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: receiver.url, signatureScheme: 'ed25519', ordering: 'fifo' });
    expect(saved.status).toBe(200);
    expect(saved.body.ordering).toBe('fifo');
    expect((await api(account, 'GET', '/WebhookSubscriptions')).body.ordering).toBe('fifo');

    ids.push(...(await publishRiskAssessments({ kafka: principalKafka('product'), domain: account.domain, count: 20, data: { score: 1 } })).map((e) => e.eventId));
    await receiver.waitForRequest((r) => r.headers['webhook-id'] === ids[8], 30_000);
    const killed = await leaseHolder(account.domain, ids[8]);
    await copies.get(killed)!.kill();
    copies.delete(killed);
    const killedAt = Date.now();

    const deliveries = await eventually(async () => {
      const { body } = await api(account, 'GET', '/WebhookSubscriptions/Deliveries?limit=50');
      return body.items.length === 20 && body.items.every((d: { status: string }) => d.status === 'delivered') ? body.items : undefined;
    }, 60_000, 250);
    console.log(`[fifo] killed ${killed} while it attempted the 9th event; the other copy delivered the rest within ${Date.now() - killedAt} ms`);

    const order = arrivalOrder(receiver.requests, ids);
    expect(order.firstSeen).toEqual(ids);
    expect(order.overtaking).toEqual([]);
    const answers = (id: string) => receiver!.requests.filter((r) => r.headers['webhook-id'] === id).map((r) => r.status ?? 'no answer');
    expect(answers(ids[0])).toEqual([500, 500, 200]);
    expect(answers(ids[8])).toEqual(['no answer', 200]);
    // Nothing after the 9th event came before the survivor sent it again.
    const resent = receiver.requests.filter((r) => r.headers['webhook-id'] === ids[8])[1].n;
    expect(receiver.requests.filter((r) => ids.indexOf(String(r.headers['webhook-id'])) > 8).every((r) => r.n > resent)).toBe(true);
    expect(receiver.requests).toHaveLength(23);
    const first = deliveries.find((d: { eventId: string }) => d.eventId === ids[0]);
    expect(first.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
  });
});
