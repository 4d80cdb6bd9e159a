import { randomBytes } from 'node:crypto';
import type { AppProcess } from '@tailsync/stack';
import { api, freshDomain, newServiceAccount } from './support/accounts';
import { logLines, untilRequestLogged } from './support/app-logs';
import { freshSourceAddress, rawRequest } from './support/raw-request';
import { baseUrl, startApp, waitForHttp } from './support/test-stack';

const admin = () => ({ token: process.env.ADMIN_TOKEN as string });

describe('responses that carry a token or a secret', () => {
  it('are never stored by a cache: the token, a new or rotated client secret, the console session', async () => {
    const created = await api(admin(), 'POST', '/admin/ServiceAccounts', { domain: freshDomain(), name: 'n' });
    expect(created.status).toBe(201);
    const { clientId, clientSecret } = created.body;
    const token = await api(null, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    expect(token.status).toBe(200);
    const rotated = await api(admin(), 'POST', `/admin/ServiceAccounts/${clientId}/RotateSecret`);
    expect(rotated.status).toBe(200);
    const signIn = await fetch(`${baseUrl()}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: process.env.ADMIN_TOKEN }) });
    expect(signIn.status).toBe(204);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
    const session = await fetch(`${baseUrl()}/console/session`, { headers: { Cookie: cookie } });
    expect(session.status).toBe(200);
    for (const res of [created.headers, token.headers, rotated.headers, signIn.headers, session.headers]) {
      expect(res.get('cache-control')).toBe('no-store');
      expect(res.get('pragma')).toBe('no-cache');
    }
  });
});

describe('failure limits on sign-ins (AUTH_FAILURES_PER_MINUTE, default 10)', () => {
  const port = 13023;
  let gateway: AppProcess;
  const tokenRequest = (from: string, clientId: string, clientSecret: string) =>
    rawRequest({ port, from, method: 'POST', path: '/oauth/token', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }) });
  const unknownId = () => `sa_${randomBytes(12).toString('hex')}`;

  beforeAll(async () => {
    // The shared stack allows more (every test connects from 127.0.0.1): this copy has the default.
    gateway = startApp('gateway', 'gateway-failure-limits', { PORT: String(port), AUTH_FAILURES_PER_MINUTE: '10' });
    await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 90_000, [gateway]);
  });
  afterAll(() => gateway.stop());

  it('answers 429 with Retry-After after 10 failed token requests from one address, even for a right secret', async () => {
    const account = await newServiceAccount();
    const from = freshSourceAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await tokenRequest(from, unknownId(), 'wrong')).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const limited = await tokenRequest(from, account.clientId, account.clientSecret);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(JSON.parse(limited.text).type).toMatch(/#rate-limited$/);
    // Another address is not held back.
    expect((await tokenRequest(freshSourceAddress(), account.clientId, account.clientSecret)).status).toBe(200);
  });

  it('blocks a client id at 10 wrong secrets from one address only: the right secret from another address still signs in', async () => {
    const account = await newServiceAccount();
    const from = freshSourceAddress();
    for (let i = 0; i < 10; i++) expect((await tokenRequest(from, account.clientId, `wrong-${i}`)).status).toBe(401);
    const limited = await tokenRequest(from, account.clientId, account.clientSecret);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await tokenRequest(freshSourceAddress(), account.clientId, account.clientSecret)).status).toBe(200);
  });

  it('never locks a client id out from many addresses: its answers slow down (at most a few seconds), the right secret still signs in', async () => {
    const account = await newServiceAccount();
    for (let i = 0; i < 14; i++) expect((await tokenRequest(freshSourceAddress(), account.clientId, `wrong-${i}`)).status).toBe(401);
    const t0 = performance.now();
    const right = await tokenRequest(freshSourceAddress(), account.clientId, account.clientSecret);
    const tookMs = performance.now() - t0;
    expect(right.status).toBe(200);
    expect(tookMs).toBeGreaterThanOrEqual(1_000); // 14 failures: slowed (250 ms at the 10th, doubling)
    expect(tookMs).toBeLessThan(6_000);
    const other = await newServiceAccount();
    const t1 = performance.now();
    expect((await tokenRequest(freshSourceAddress(), other.clientId, other.clientSecret)).status).toBe(200);
    // Another client id is not slowed: it answers without the seconds the first one waited (a
    // loaded machine makes any sign-in take about a second, so no fixed bound).
    expect(performance.now() - t1).toBeLessThan(tookMs / 2);
  });

  it('checks and records in one step: of 30 parallel wrong guesses from one address, at most 10 are checked, the rest 429', async () => {
    const account = await newServiceAccount();
    const from = freshSourceAddress();
    const statuses = (await Promise.all(Array.from({ length: 30 }, (_, i) => tokenRequest(from, account.clientId, `guess-${i}`)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect((await tokenRequest(from, account.clientId, account.clientSecret)).status).toBe(429);
  });

  it('says once, when a request came through a proxy while TRUST_PROXY is off, that the proxy is all it sees', async () => {
    const forwarded = () => rawRequest({ port, from: freshSourceAddress(), method: 'GET', path: '/health/live', headers: { 'X-Forwarded-For': '203.0.113.7' } });
    await forwarded();
    await forwarded();
    // The log is written asynchronously: a later request's access line, once there, follows every line logged before it.
    const later = `after-forwarded-${randomBytes(8).toString('hex')}`;
    await rawRequest({ port, from: freshSourceAddress(), method: 'GET', path: '/Version', headers: { 'X-Request-Id': later } });
    await untilRequestLogged('gateway-failure-limits', later);
    const log = logLines('gateway-failure-limits').join('\n');
    expect(log).toContain('TRUST_PROXY is off: client addresses');
    expect(log.match(/came through a proxy \(X-Forwarded-For\) but TRUST_PROXY is off/g)).toHaveLength(1);
  });

  it('takes as long to refuse an unknown client id as a wrong secret', async () => {
    const account = await newServiceAccount();
    const timed = async (clientId: string) => {
      const t0 = performance.now();
      expect((await tokenRequest(freshSourceAddress(), clientId, 'wrong')).status).toBe(401);
      return performance.now() - t0;
    };
    const unknown: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < 7; i++) {
      unknown.push(await timed(unknownId()));
      known.push(await timed(account.clientId));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('answers 429 after 10 wrong admin tokens from one address, at the admin API and the console sign-in alike', async () => {
    const from = freshSourceAddress();
    const adminCall = (token: string) => rawRequest({ port, from, method: 'GET', path: '/admin/ServiceAccounts', headers: { Authorization: `Bearer ${token}` } });
    const signIn = (token: string) => rawRequest({ port, from, method: 'POST', path: '/console/session', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
    for (let i = 0; i < 5; i++) expect((await adminCall(`wrong-${i}`)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await signIn(`wrong-${i}`)).status).toBe(401);
    for (const res of [await adminCall(process.env.ADMIN_TOKEN as string), await signIn(process.env.ADMIN_TOKEN as string)]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    const elsewhere = await rawRequest({ port, from: freshSourceAddress(), method: 'GET', path: '/admin/ServiceAccounts', headers: { Authorization: `Bearer ${process.env.ADMIN_TOKEN}` } });
    expect(elsewhere.status).toBe(200);
  });
});

describe('the bounded hashing pool and the admin token length', () => {
  it('answers 503 with Retry-After, never 500 or a long wait, when the hashing pool is full', async () => {
    const port = 13024;
    const gateway = startApp('gateway', 'gateway-hashing-pool', { PORT: String(port), AUTH_HASH_CONCURRENCY: '1', AUTH_HASH_QUEUE: '2' });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 90_000, [gateway]);
      const account = await newServiceAccount();
      const results = await Promise.all(
        Array.from({ length: 24 }, () =>
          rawRequest({ port, from: freshSourceAddress(), method: 'POST', path: '/oauth/token', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret }) }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
      const full = results.filter((r) => r.status === 503);
      expect(full.length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect(Number(full[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await gateway.stop();
    }
  });

  it('refuses to start with an ADMIN_TOKEN shorter than 32 characters', async () => {
    const gateway = startApp('gateway', 'gateway-short-admin-token', { PORT: '13025', ADMIN_TOKEN: 'x'.repeat(31) });
    expect(await gateway.exited).not.toBe(0);
    expect(logLines('gateway-short-admin-token').join('\n')).toContain('ADMIN_TOKEN must be at least 32 characters');
  });
});
