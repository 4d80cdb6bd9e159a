import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallerContext } from '@tailsync/contracts';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { eventually, isolatedDatabase, newSharedSecret, sleep, uniqueDomain } from '../testing/harness';
import { runningDispatcher, stopDispatcher } from '../testing/running-dispatcher';
import { callbackBody } from '../intake/domain/event-message';

const EVT = 'Product.RiskAssessmentExecuted';

/** A real receiver that answers after `delayMs`, counting the requests it holds at once. */
class SlowReceiver {
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  holding = 0;
  mostHeld = 0;
  private server!: Server;
  url = '';

  constructor(private readonly answer: (n: number) => { status: number; delayMs: number }) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const n = this.starts.push(Date.now());
        this.holding++;
        this.mostHeld = Math.max(this.mostHeld, this.holding);
        const { status, delayMs } = this.answer(n);
        setTimeout(() => {
          this.holding--;
          this.ends[n - 1] = Date.now();
          res.writeHead(status).end();
        }, delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });

async function subscribe(runtime: DispatcherCopy, domain: string, url: string, limits: { maxPerSecond?: number; maxInFlight?: number }) {
  const reply = await runtime.requests.subscriptions.put({
    caller: caller(domain), body: { eventNames: [EVT], url, sharedSecret: newSharedSecret(), ...limits },
  });
  if (!reply.ok) throw new Error(JSON.stringify(reply.problem));
  return reply.result;
}

/** Fresh deliveries handed to the copies in turn, as their consumers would (leased to each, queued at once). */
async function deliver(runtimes: DispatcherCopy[], domain: string, count: number): Promise<void> {
  const fresh = Array.from({ length: count }, () => randomUUID()).map((eventId) => ({ domain, eventId, eventName: EVT, body: callbackBody(EVT, { eventId, domain, occurredAt: new Date().toISOString(), data: {} }) }));
  await Promise.all(runtimes.map(async (r, i) => r.admission.admit(fresh.filter((_, k) => k % runtimes.length === i), await r.subscriptions.getMany([domain]))));
}

/** When each attempt of the domain started, by the dispatchers' clocks (the delivery log), in order. */
async function attemptStarts(runtime: DispatcherCopy, domain: string): Promise<number[]> {
  const { rows } = await runtime.pool.query<{ at: Date }>(
    'select a.at from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.domain = $1 order by a.at', [domain]);
  return rows.map((r) => r.at.getTime());
}

const delivered = (runtime: DispatcherCopy, domain: string, count: number, timeoutMs = 30_000) =>
  eventually(async () => {
    const { rows } = await runtime.pool.query<{ n: string }>("select count(*) as n from webhook_deliveries where domain = $1 and status = 'delivered'", [domain]);
    return Number(rows[0].n) >= count;
  }, timeoutMs, 100);

/** While `work` runs, the most attempts each copy had running at once. */
async function busiest(runtimes: DispatcherCopy[], work: Promise<unknown>): Promise<number[]> {
  const most = runtimes.map(() => 0);
  let done = false;
  void work.finally(() => (done = true));
  while (!done) {
    runtimes.forEach((r, i) => (most[i] = Math.max(most[i], r.scheduler.activeAttempts)));
    await sleep(5);
  }
  await work;
  return most;
}

describe('flow control: maxInFlight and maxPerSecond across two dispatcher copies (real PostgreSQL, real receivers)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let copies: DispatcherCopy[];
  const receivers: SlowReceiver[] = [];
  const receiver = async (answer: (n: number) => { status: number; delayMs: number }) => {
    const r = await new SlowReceiver(answer).start();
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    db = await isolatedDatabase('flow_control');
    const settings = { WEBHOOK_DOMAIN_CONCURRENCY: '8', WEBHOOK_RETRY_DELAYS_MS: '300' };
    copies = [await runningDispatcher(db.pool, 'flow-a', settings), await runningDispatcher(db.pool, 'flow-b', settings)];
  });
  afterAll(async () => {
    await Promise.all(copies.map(stopDispatcher));
    await Promise.all(receivers.map((r) => r.close()));
    await db.drop();
  });

  it('never holds more than maxInFlight attempts at the receiver, with both copies delivering (and more without the cap)', async () => {
    const capped = uniqueDomain();
    const slow = await receiver(() => ({ status: 204, delayMs: 150 }));
    expect(await subscribe(copies[0], capped, slow.url, { maxInFlight: 2 })).toMatchObject({ maxInFlight: 2, maxPerSecond: null });
    await deliver(copies, capped, 16);
    const most = await busiest(copies, delivered(copies[0], capped, 16));
    expect(slow.starts).toHaveLength(16);
    expect(slow.mostHeld).toBe(2);
    expect(most.every((n) => n >= 1)).toBe(true); // both copies ran attempts of the domain

    // The same load without the cap: the receiver holds more at once (what the cap prevented).
    const free = uniqueDomain();
    const unbounded = await receiver(() => ({ status: 204, delayMs: 150 }));
    await subscribe(copies[0], free, unbounded.url, {});
    await deliver(copies, free, 16);
    await delivered(copies[0], free, 16);
    expect(unbounded.mostHeld).toBeGreaterThan(2);
  });

  it('never starts more than maxPerSecond attempts in any second, across both copies', async () => {
    const domain = uniqueDomain();
    const fast = await receiver(() => ({ status: 204, delayMs: 5 }));
    await subscribe(copies[1], domain, fast.url, { maxPerSecond: 5 });
    await deliver(copies, domain, 13);
    const most = await busiest(copies, delivered(copies[0], domain, 13));
    expect(fast.starts).toHaveLength(13);
    // Counted when the dispatchers started the attempts: the receiver's clock adds the network's jitter.
    const starts = await attemptStarts(copies[0], domain);
    expect(starts).toHaveLength(13);
    const inASecond = starts.map((t) => starts.filter((u) => u >= t && u < t + 1000).length);
    expect(Math.max(...inASecond)).toBeLessThanOrEqual(5);
    // 13 attempts at 5 a second take at least 12 intervals of ~200 ms.
    expect(starts[12] - starts[0]).toBeGreaterThanOrEqual(12 * 200 - 50);
    expect(most.every((n) => n >= 1)).toBe(true);
  });

  it('refuses caps out of range', async () => {
    const domain = uniqueDomain();
    const requests = copies[0].requests.subscriptions;
    const put = (limits: Record<string, unknown>) =>
      requests.put({ caller: caller(domain), body: { eventNames: [EVT], url: 'http://127.0.0.1:9/x', sharedSecret: newSharedSecret(), ...limits } });
    expect(await put({ maxPerSecond: 0, maxInFlight: 101 })).toMatchObject({
      ok: false, problem: { fieldErrors: { maxPerSecond: ['maxPerSecond must be an integer from 1 to 1000.'], maxInFlight: ['maxInFlight must be an integer from 1 to 100.'] } },
    });
    expect(await put({ maxPerSecond: 1.5 })).toMatchObject({ ok: false, problem: { fieldErrors: { maxPerSecond: expect.any(Array) } } });
    expect(await put({ maxPerSecond: 1000, maxInFlight: 100 })).toMatchObject({ ok: true, result: { maxPerSecond: 1000, maxInFlight: 100 } });
    expect(await put({})).toMatchObject({ ok: true, result: { maxPerSecond: null, maxInFlight: null } }); // saving without them lifts them
  });
});

describe('the adaptive slow-down of an uncapped domain (one copy, real receiver)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let copy: DispatcherCopy;
  let slow: SlowReceiver;

  beforeAll(async () => {
    db = await isolatedDatabase('flow_adaptive');
    copy = await runningDispatcher(db.pool, 'adaptive', { WEBHOOK_DOMAIN_CONCURRENCY: '8', WEBHOOK_RETRY_DELAYS_MS: '60000' });
  });
  afterAll(async () => {
    await stopDispatcher(copy);
    await slow?.close();
    await db.drop();
  });

  it('after 503s sends one attempt at a time until one succeeds, then as many as before', async () => {
    const domain = uniqueDomain();
    // The first 8 requests: 503 (no Retry-After) after 100 ms; then 200 after 200 ms.
    slow = await new SlowReceiver((n) => (n <= 8 ? { status: 503, delayMs: 100 } : { status: 200, delayMs: 200 })).start();
    await subscribe(copy, domain, slow.url, {});
    await deliver([copy], domain, 8);
    await eventually(async () => slow.ends.filter(Boolean).length >= 8, 10_000);
    expect(slow.mostHeld).toBe(8); // the full allowance at first
    await sleep(100); // the 503s are recorded
    await deliver([copy], domain, 12);
    await delivered(copy, domain, 12);
    const [ninth, tenth] = [slow.starts[8], slow.starts[9]];
    // Halved to 1 by the 503s: the tenth attempt waits for the ninth's success…
    expect(tenth).toBeGreaterThanOrEqual(slow.ends[8] - 5);
    expect(tenth - ninth).toBeGreaterThanOrEqual(180);
    // …which gave the whole allowance back: the rest overlapped again.
    const afterSuccess = slow.starts.slice(9);
    const overlapping = afterSuccess.filter((t, i) => i > 0 && t < slow.ends[9 + i - 1]).length;
    expect(overlapping).toBeGreaterThan(0);
  });
});
