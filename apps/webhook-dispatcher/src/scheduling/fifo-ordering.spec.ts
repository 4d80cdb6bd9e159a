import { randomUUID } from 'node:crypto';
import type { CallerContext, DeliveryOrdering } from '@tailsync/contracts';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { eventually, isolatedDatabase, newSharedSecret, uniqueDomain } from '../testing/harness';
import { arrivalOrder, WebhookReceiver, type ReceiverScript } from '@tailsync/webhooks/testing';
import { runningDispatcher, stopDispatcher } from '../testing/running-dispatcher';
import type { NewDelivery } from '../delivery-log/delivery';
import { callbackBody } from '../intake/domain/event-message';

const EVT = 'Product.RiskAssessmentExecuted';
const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });

describe('ordering "fifo" with two dispatcher copies (real PostgreSQL, real receivers)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let copies: DispatcherCopy[];
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    db = await isolatedDatabase('fifo');
    const settings = { WEBHOOK_RETRY_DELAYS_MS: '200,200' };
    copies = [await runningDispatcher(db.pool, 'fifo-a', settings), await runningDispatcher(db.pool, 'fifo-b', settings)];
  });
  afterAll(async () => {
    await Promise.all(copies.map(stopDispatcher));
    await Promise.all(receivers.map((r) => r.close()));
    await db.drop();
  });

  async function subscribed(ordering: DeliveryOrdering | undefined, script: ReceiverScript) {
    const domain = uniqueDomain();
    const receiver = await WebhookReceiver.start(script);
    receivers.push(receiver);
    const reply = await copies[0].requests.subscriptions.put({
      caller: caller(domain), body: { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret(), ...(ordering ? { ordering } : {}) },
    });
    if (!reply.ok) throw new Error(JSON.stringify(reply.problem));
    return { domain, receiver, view: reply.result };
  }

  /** `count` event ids, and their deliveries for `domain` at offsets 0… of partition 3. */
  function topic(count: number) {
    const ids = Array.from({ length: count }, () => randomUUID());
    const events = (domain: string): NewDelivery[] => ids.map((eventId, k) => ({
      domain, eventId, eventName: EVT, body: callbackBody(EVT, { eventId, domain, occurredAt: new Date().toISOString(), data: { k } }), position: { partition: 3, offset: String(k) },
    }));
    return { ids, events };
  }

  /**
   * The events consumed in batches of 4 by the copies in turn, as their consumers hand them on:
   * attempted first, or stored first (the two ways a batch goes).
   */
  async function consume(events: NewDelivery[]): Promise<void> {
    const domain = events[0].domain;
    for (let k = 0; k * 4 < events.length; k++) {
      const copy = copies[k % 2];
      const batch = events.slice(k * 4, k * 4 + 4);
      const subscriptions = await copy.subscriptions.getMany([domain]);
      if (k % 4 < 2) await (await copy.admission.admitAttemptingFirst(batch, subscriptions)).stored;
      else await copy.admission.admit(batch, subscriptions);
    }
  }

  const ended = (domain: string, count: number) =>
    eventually(async () => {
      const { rows } = await db.pool.query<{ status: string; n: string }>('select status, count(*)::text as n from webhook_deliveries where domain = $1 group by status', [domain]);
      const byStatus = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
      return (byStatus.pending ?? 0) === 0 && Object.values(byStatus).reduce((a, b) => a + b, 0) === count ? byStatus : undefined;
    }, 30_000, 50);

  it('a receiver that fails the first of 20 events twice receives all 20 in the topic order', async () => {
    // The first event's attempts 1 and 2 fail; everything else is accepted.
    const { ids, events } = topic(20);
    const s = await subscribed('fifo', (r) => ({ status: r.headers['webhook-id'] === ids[0] && Number(r.headers['webhook-attempt']) <= 2 ? 500 : 200 }));
    expect(s.view.ordering).toBe('fifo');
    await consume(events(s.domain));
    expect(await ended(s.domain, 20)).toEqual({ delivered: 20 });
    const order = arrivalOrder(s.receiver.requests, ids);
    expect(order.firstSeen).toEqual(ids);
    expect(order.overtaking).toEqual([]);
    expect(s.receiver.requests.filter((r) => r.headers['webhook-id'] === ids[0]).map((r) => r.status)).toEqual([500, 500, 200]);
    expect(s.receiver.requests).toHaveLength(22);
  });

  it('without fifo, the same receiver gets later events while the first is still failing (what fifo prevents)', async () => {
    const { ids, events } = topic(20);
    const s = await subscribed(undefined, (r) => ({ status: r.headers['webhook-id'] === ids[0] && Number(r.headers['webhook-attempt']) <= 2 ? 500 : 200 }));
    expect(s.view.ordering).toBe('none');
    await consume(events(s.domain));
    await ended(s.domain, 20);
    expect(arrivalOrder(s.receiver.requests, ids).overtaking.length).toBeGreaterThan(0);
  });

  it('goes on with the next event once an earlier one has failed for good, and keeps the order among the rest', async () => {
    const { ids, events } = topic(6);
    const s = await subscribed('fifo', (r) => ({ status: r.headers['webhook-id'] === ids[0] ? 500 : 204 }));
    await consume(events(s.domain));
    expect(await ended(s.domain, 6)).toEqual({ delivered: 5, failed: 1 });
    const rest = s.receiver.requests.filter((r) => r.headers['webhook-id'] !== ids[0]);
    expect(arrivalOrder(rest, ids.slice(1))).toEqual({ firstSeen: ids.slice(1), overtaking: [] });
    const lastFailure = Math.max(...s.receiver.requests.filter((r) => r.headers['webhook-id'] === ids[0]).map((r) => r.n));
    expect(lastFailure).toBe(3);
    expect(Math.min(...rest.map((r) => r.n))).toBe(4);
  });

  it('refuses an ordering it does not know, and saving without one sets none', async () => {
    const domain = uniqueDomain();
    const requests = copies[0].requests.subscriptions;
    const put = (extra: Record<string, unknown>) =>
      requests.put({ caller: caller(domain), body: { eventNames: [EVT], url: 'http://127.0.0.1:9/x', sharedSecret: newSharedSecret(), ...extra } });
    expect(await put({ ordering: 'lifo' })).toMatchObject({ ok: false, problem: { fieldErrors: { ordering: ['ordering must be one of none, fifo.'] } } });
    expect(await put({ ordering: 'fifo' })).toMatchObject({ ok: true, result: { ordering: 'fifo' } });
    expect(await put({})).toMatchObject({ ok: true, result: { ordering: 'none' } });
  });
});
