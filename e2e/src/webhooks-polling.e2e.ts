/**
 * The polling door, GET /WebhookSubscriptions/Events: a domain's events oldest first, followed with
 * an iterator, each with headers that our receiver package verifies exactly as it verifies the
 * callback the receiver got; never another domain's events; every bad query a 400 problem. And
 * `npm run cli -- listen` and `tailsync-webhooks listen`, which follow it to a local receiver that
 * verifies what arrives.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { verifyStandardWebhook, verifyWebhookRequest, type WebhookJwks } from '@tailsync/webhooks';
import { api, newServiceAccount, type TestAccount } from './support/accounts';
import { eventually } from './support/eventually';
import { baseUrl } from './support/test-stack';
import type { ReceivedRequest, ReceiverScript } from './support/receiver';
import { deliveryOf, EVT, publish, receiver, subscribed, type Subscribed } from './support/webhooks';

const ROOT = join(__dirname, '..', '..');

interface PolledEvent { eventId: string; eventName: string; occurredAt: string; payload: string; headers: Record<string, string> }
interface EventPage { items: PolledEvent[]; iterator: string; done: boolean }

async function door(account: TestAccount, query = ''): Promise<EventPage> {
  const res = await api(account, 'GET', `/WebhookSubscriptions/Events${query}`);
  expect(res.status).toBe(200);
  return res.body as EventPage;
}

/** Every event the door shows the domain, page by page (`limit` each), from the start. */
async function readAll(account: TestAccount, limit: number): Promise<{ pages: EventPage[]; items: PolledEvent[] }> {
  const pages: EventPage[] = [];
  let after = '';
  for (;;) {
    const page = await door(account, `?limit=${limit}${after && `&after=${after}`}`);
    pages.push(page);
    after = page.iterator;
    if (page.done) break;
  }
  return { pages, items: pages.flatMap((p) => p.items) };
}

describe('the polling door', () => {
  it("lists the domain's events oldest first with a working iterator, signed as their callbacks; another domain sees none", async () => {
    const [s, other] = await Promise.all([subscribed(), subscribed()]);
    const events = await publish(s.account.domain, 3);
    const [otherEvent] = await publish(other.account.domain, 1);
    for (const e of events) await deliveryOf(s.account, e.eventId, 'delivered');
    await deliveryOf(other.account, otherEvent.eventId, 'delivered');

    const { pages, items } = await readAll(s.account, 2);
    expect(items.map((i) => i.eventId)).toEqual(events.map((e) => e.eventId));
    expect(pages.map((p) => [p.items.length, p.done])).toEqual([[2, false], [1, true]]);

    for (const item of items) {
      // The payload is the exact body the receiver got; the headers verify it as that callback did.
      const callback = s.receiver.requests.find((r) => r.headers['webhook-id'] === item.eventId)!;
      expect(item.payload).toBe(callback.rawBody.toString('utf8'));
      expect(item).toMatchObject({ eventName: EVT, occurredAt: JSON.parse(item.payload).occurredAt });
      expect(item.headers).toMatchObject({ 'webhook-id': item.eventId, 'webhook-attempt': '1', 'content-type': 'application/json' });
      expect(verifyStandardWebhook({ headers: item.headers, rawBody: item.payload, secret: s.secret })).toMatchObject({ ok: true, webhookId: item.eventId });
      expect(verifyWebhookRequest({ authorizationHeader: item.headers.authorization, rawBody: item.payload, secret: s.secret })).toMatchObject({
        ok: true, claims: { sub: s.account.domain, evt: EVT },
      });
      expect(verifyStandardWebhook({ headers: item.headers, rawBody: item.payload, secret: other.secret })).toMatchObject({ ok: false });
    }
    expect(JSON.stringify(items)).not.toContain(s.secret);

    // Another domain's door: its own event only.
    const theirs = await readAll(other.account, 500);
    expect(theirs.items.map((i) => i.eventId)).toEqual([otherEvent.eventId]);

    // Followed on from the last iterator: nothing, the same iterator; then the next event only.
    const last = pages[pages.length - 1].iterator;
    expect(await door(s.account, `?after=${last}`)).toEqual({ items: [], iterator: last, done: true });
    const [later] = await publish(s.account.domain, 1);
    const next = await eventually(async () => {
      const page = await door(s.account, `?after=${last}`);
      return page.items.length > 0 ? page : undefined;
    }, 20_000);
    expect(next.items.map((i) => i.eventId)).toEqual([later.eventId]);
  });

  it('signs with the domain key for an ed25519 subscription (verified with the public JWK Set)', async () => {
    const [account, r] = await Promise.all([newServiceAccount(), receiver()]);
    expect((await api(account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: r.url, signatureScheme: 'ed25519' })).status).toBe(200);
    const [event] = await publish(account.domain, 1);
    const [item] = await eventually(async () => {
      const page = await door(account);
      return page.items.length > 0 ? page.items : undefined;
    }, 20_000);
    expect(item.eventId).toBe(event.eventId);
    expect(item.headers['webhook-signature']).toMatch(/^v1a,/);
    const publicKeys = (await (await fetch(`${baseUrl()}/.well-known/webhooks/jwks.json?domain=${account.domain}`)).json()) as WebhookJwks;
    expect(verifyStandardWebhook({ headers: item.headers, rawBody: item.payload, publicKeys })).toMatchObject({ ok: true });
    expect(verifyWebhookRequest({ authorizationHeader: item.headers.authorization, rawBody: item.payload, publicKeys })).toMatchObject({ ok: true });
  });

  it('answers a bad iterator or limit with a 400 problem naming the field, and 404 without a subscription', async () => {
    const s = await subscribed();
    const cases: [string, string][] = [
      ['?limit=0', 'limit'], ['?limit=501', 'limit'], ['?limit=abc', 'limit'], ['?limit=1.5', 'limit'],
      ['?after=not%2Ban%2Fiterator', 'after'], [`?after=${'A'.repeat(65)}`, 'after'],
      [`?after=${Buffer.from('d:12').toString('base64url')}`, 'after'], ['?after=', 'after'],
    ];
    for (const [query, field] of cases) {
      const res = await api(s.account, 'GET', `/WebhookSubscriptions/Events${query}`);
      expect([query, res.status, res.headers.get('content-type')]).toEqual([query, 400, expect.stringMatching(/^application\/problem\+json/)]);
      expect([query, Object.keys(res.body.fieldErrors)]).toEqual([query, [field]]);
    }
    const unsubscribed = await newServiceAccount();
    const none = await api(unsubscribed, 'GET', '/WebhookSubscriptions/Events');
    expect(none.status).toBe(404);
    expect((await api(null, 'GET', '/WebhookSubscriptions/Events')).status).toBe(401);
  });
});

/** A laptop's receiver: verifies each request with our package and the subscription's secret, 204 or 401. */
const verifying = (secret: string): ReceiverScript => (r: ReceivedRequest) => {
  const token = verifyWebhookRequest({ authorizationHeader: r.headers.authorization, rawBody: r.rawBody, secret });
  const standard = verifyStandardWebhook({ headers: r.headers, rawBody: r.rawBody, secret });
  return { status: token.ok && standard.ok ? 204 : 401 };
};

/** The two `listen` commands: the repository's CLI and the PyPI package's (from its source, as the Python e2e files run it). */
const LISTENERS = {
  npm: () => [process.execPath, join(ROOT, 'tools', 'run.js'), join(ROOT, 'tools', 'cli', 'main.ts')],
  python: () => {
    if (!process.env.TAILSYNC_TEST_PYTHON) throw new Error('TAILSYNC_TEST_PYTHON is not set: run the suite with `npm test`');
    return [process.env.TAILSYNC_TEST_PYTHON, '-m', 'tailsync_webhooks'];
  },
};

/** `npm run cli -- listen …` (or `tailsync-webhooks listen …`) signed in as the account; resolves when it exits. */
function listen(account: TestAccount, args: string[], listener: keyof typeof LISTENERS = 'npm') {
  const [command, ...prefix] = LISTENERS[listener]();
  const child = spawn(command, [...prefix, 'listen', '--base-url', baseUrl(), ...args], {
    cwd: ROOT,
    env: {
      ...process.env, TAILSYNC_CLIENT_ID: account.clientId, TAILSYNC_CLIENT_SECRET: account.clientSecret,
      PYTHONPATH: join(ROOT, 'sdks', 'python', 'src'), PYTHONDONTWRITEBYTECODE: '1',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, exited, stderr: () => stderr };
}

async function delivered(s: Subscribed, count: number) {
  const events = await publish(s.account.domain, count);
  for (const e of events) await deliveryOf(s.account, e.eventId, 'delivered');
  return events;
}

describe('npm run cli -- listen --forward, and tailsync-webhooks listen --forward', () => {
  it.each(['npm', 'python'] as const)('%s: forwards every event in order to a local receiver, which verifies each as a callback; a 503 is retried', async (listener) => {
    const s = await subscribed();
    const events = await delivered(s, 3);
    const laptop = await receiver((r) => (r.n === 2 ? { status: 503 } : verifying(s.secret)(r)));

    const run = await listen(s.account, ['--forward', laptop.url, '--once'], listener).exited;
    expect(run.stderr).not.toContain(s.account.clientSecret);
    expect(run.code).toBe(0);
    // The second event answered 503 once, then came again (freshly signed) and was taken.
    const ids = events.map((e) => e.eventId);
    expect(laptop.requests.map((r) => [r.headers['webhook-id'], r.status])).toEqual([[ids[0], 204], [ids[1], 503], [ids[1], 204], [ids[2], 204]]);
    for (const r of laptop.requests) {
      const callback = s.receiver.requests.find((c) => c.headers['webhook-id'] === r.headers['webhook-id'])!;
      expect(r.rawBody.equals(callback.rawBody)).toBe(true);
    }
    expect(run.stdout.trim().split('\n').map((line) => line.split(' ').slice(1, 2)[0])).toEqual([ids[0], ids[1], ids[1], ids[2]]);
    expect(run.stderr).toMatch(/to go on from here: --after [A-Za-z0-9_-]+/);
  }, 60_000);

  it.each([['npm', '200'], ['python', '0.2']] as const)('%s: keeps following: an event published while it runs reaches the receiver, and --after resumes past what it took', async (listener, interval) => {
    const s = await subscribed();
    const [first] = await delivered(s, 1);
    const laptop = await receiver(verifying(s.secret));
    const running = listen(s.account, ['--forward', laptop.url, '--interval', interval], listener);
    await eventually(async () => laptop.requests.length >= 1, 30_000);
    const [second] = await publish(s.account.domain, 1);
    await eventually(async () => laptop.requests.length >= 2, 30_000);
    running.child.kill('SIGINT');
    const run = await running.exited;
    expect(run.code).toBe(0);
    expect(laptop.requests.map((r) => [r.headers['webhook-id'], r.status])).toEqual([[first.eventId, 204], [second.eventId, 204]]);

    const after = /--after (\S+)/.exec(run.stderr)![1];
    const [third] = await delivered(s, 1);
    const resumed = await listen(s.account, ['--forward', laptop.url, '--once', '--after', after], listener).exited;
    expect(resumed.code).toBe(0);
    expect(laptop.requests.slice(2).map((r) => r.headers['webhook-id'])).toEqual([third.eventId]);
  }, 90_000);

  it.each([['npm', '200'], ['python', '0.2']] as const)('%s: --from-now forwards only the events that come after it starts, none of those kept before', async (listener, interval) => {
    const s = await subscribed();
    const before = await delivered(s, 3);
    const laptop = await receiver(verifying(s.secret));
    const running = listen(s.account, ['--forward', laptop.url, '--from-now', '--interval', interval], listener);
    // It has read through what was kept once it says so: what is published from then on is "after it started".
    await eventually(async () => running.stderr().includes('from now on: 3 events kept before it are passed over'), 30_000);
    const [after] = await publish(s.account.domain, 1);
    await eventually(async () => laptop.requests.length >= 1, 30_000);
    running.child.kill('SIGINT');
    const run = await running.exited;
    expect(run.code).toBe(0);
    expect(laptop.requests.map((r) => [r.headers['webhook-id'], r.status])).toEqual([[after.eventId, 204]]);
    expect(laptop.requests.map((r) => r.headers['webhook-id'])).not.toEqual(expect.arrayContaining([before[0].eventId]));
    // --after names another start: the two together are refused before anything is read.
    const both = await listen(s.account, ['--forward', laptop.url, '--from-now', '--after', 'x'], listener).exited;
    expect([both.code, both.stderr]).toEqual([2, expect.stringMatching(/--after/)]);
  }, 90_000);

  it.each(['npm', 'python'] as const)('%s: refuses to start without a receiver URL, and stops with the problem on a bad iterator', async (listener) => {
    const s = await subscribed();
    const missing = await listen(s.account, [], listener).exited;
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/--forward/)]);
    const bad = await listen(s.account, ['--forward', 'http://127.0.0.1:9/hook', '--after', 'nope'], listener).exited;
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('400')]);
  }, 60_000);
});
