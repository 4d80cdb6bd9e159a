import { api, freshDomain, newServiceAccount, type TestAccount } from './support/accounts';
import { eventually } from './support/eventually';
import { DatabaseProxy } from './support/database-proxy';
import { startApp, waitForHttp } from './support/test-stack';

const admin = () => ({ token: process.env.ADMIN_TOKEN as string });
const SECOND_GATEWAY = 'http://127.0.0.1:13021';

async function tokenStatus(account: TestAccount): Promise<number> {
  return (await api(null, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret })).status;
}

async function newToken(account: TestAccount): Promise<TestAccount> {
  const res = await api(null, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret });
  expect(res.status).toBe(200);
  return { ...account, token: res.body.access_token };
}

const tailsOn = async (base: string, account: TestAccount) =>
  (await fetch(`${base}/Tails`, { headers: { Authorization: `Bearer ${account.token}` } })).status;

describe('admin API: service accounts', () => {
  it("lists a domain's accounts in creation order, page by page", async () => {
    const domain = freshDomain();
    const created = [];
    for (const name of ['one', 'two', 'three']) created.push((await api(admin(), 'POST', '/admin/ServiceAccounts', { domain, name })).body);
    const first = await api(admin(), 'GET', `/admin/ServiceAccounts?domain=${domain}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual(created.slice(0, 2).map((a) => ({ clientId: a.clientId, domain, name: a.name, status: 'active', createdAt: expect.any(String) })));
    expect(JSON.stringify(first.body)).not.toContain(created[0].clientSecret);
    const second = await api(admin(), 'GET', `/admin/ServiceAccounts?domain=${domain}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ items: [expect.objectContaining({ clientId: created[2].clientId })], nextCursor: null });
    expect((await api(admin(), 'GET', '/admin/ServiceAccounts?cursor=not-ours')).status).toBe(400);
    expect((await api(null, 'GET', '/admin/ServiceAccounts')).status).toBe(401);
  });

  it('disables, enables, rotates and deletes; unknown ids are 404', async () => {
    const account = await newServiceAccount();
    const disabled = await api(admin(), 'POST', `/admin/ServiceAccounts/${account.clientId}/Disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ clientId: account.clientId, status: 'disabled' });
    expect(await tokenStatus(account)).toBe(401);
    expect((await api(account, 'GET', '/Tails')).status).toBe(401); // the copy that disabled it refuses at once

    expect((await api(admin(), 'POST', `/admin/ServiceAccounts/${account.clientId}/Enable`)).body.status).toBe('active');
    expect(await tokenStatus(account)).toBe(200);
    // Enabling does not revive the tokens issued before the account was disabled; new ones work.
    expect((await api(account, 'GET', '/Tails')).status).toBe(401);
    const afterEnable = await newToken(account);
    expect((await api(afterEnable, 'GET', '/Tails')).status).toBe(200);

    const rotated = await api(admin(), 'POST', `/admin/ServiceAccounts/${account.clientId}/RotateSecret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ clientId: account.clientId, status: 'active', clientSecret: expect.any(String) });
    expect(await tokenStatus(account)).toBe(401);
    expect(await tokenStatus({ ...account, clientSecret: rotated.body.clientSecret })).toBe(200);
    // A token issued before the rotation is refused at once; one issued after it works.
    expect((await api(afterEnable, 'GET', '/Tails')).status).toBe(401);
    expect((await api(await newToken({ ...account, clientSecret: rotated.body.clientSecret }), 'GET', '/Tails')).status).toBe(200);

    expect((await api(admin(), 'DELETE', `/admin/ServiceAccounts/${account.clientId}`)).status).toBe(204);
    expect(await tokenStatus({ ...account, clientSecret: rotated.body.clientSecret })).toBe(401);
    expect((await api(account, 'GET', '/Tails')).status).toBe(401);
    for (const [method, path] of [['POST', 'Disable'], ['POST', 'Enable'], ['POST', 'RotateSecret']]) {
      expect((await api(admin(), method, `/admin/ServiceAccounts/${account.clientId}/${path}`)).status).toBe(404);
    }
    expect((await api(admin(), 'DELETE', `/admin/ServiceAccounts/${account.clientId}`)).status).toBe(404);
    expect((await api(admin(), 'GET', `/admin/ServiceAccounts?domain=${account.domain}`)).body.items).toEqual([]);
  });

  it('refuses the tokens of a rotated, disabled or deleted account on another gateway copy within 5 s', async () => {
    const gateway = startApp('gateway', 'gateway-second', { PORT: '13021' });
    try {
      await waitForHttp(`${SECOND_GATEWAY}/health/ready`, 60_000, [gateway]);
      for (const [method, path] of [['POST', 'RotateSecret'], ['POST', 'Disable'], ['DELETE', '']]) {
        const account = await newServiceAccount();
        expect(await tailsOn(SECOND_GATEWAY, account)).toBe(200);
        const started = Date.now();
        const res = await api(admin(), method, `/admin/ServiceAccounts/${account.clientId}${path ? `/${path}` : ''}`);
        expect(res.status).toBeLessThan(300);
        await eventually(async () => (await tailsOn(SECOND_GATEWAY, account)) === 401, 5_000, 100);
        expect(Date.now() - started).toBeLessThanOrEqual(5_000);
      }
    } finally {
      await gateway.stop();
    }
  });

  it('answers 503 to authenticated calls once its revocation list is 15 s stale, and to what needs the database while it is gone, and recovers', async () => {
    // The copy reaches PostgreSQL through a proxy this test cuts: the list can no longer be refreshed.
    const proxy = new DatabaseProxy(new URL(process.env.DATABASE_URL as string));
    const port = await proxy.listen();
    const databaseUrl = new URL(process.env.DATABASE_URL as string);
    databaseUrl.host = `127.0.0.1:${port}`;
    const gateway = startApp('gateway', 'gateway-stale-revocations', { PORT: '13026', DATABASE_URL: databaseUrl.toString() });
    const base = 'http://127.0.0.1:13026';
    try {
      await waitForHttp(`${base}/health/ready`, 60_000, [gateway]);
      const account = await newServiceAccount();
      expect(await tailsOn(base, account)).toBe(200);
      proxy.cut();
      const cutAt = Date.now();
      await eventually(async () => (await tailsOn(base, account)) === 503, 25_000, 250);
      expect(Date.now() - cutAt).toBeGreaterThanOrEqual(13_000);
      const refused = await fetch(`${base}/Tails`, { headers: { Authorization: `Bearer ${account.token}` } });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await fetch(`${base}/Version`)).status).toBe(200);
      // What needs the database now answers that it is unavailable, never a 500.
      for (const call of [
        () => fetch(`${base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret }) }),
        () => fetch(`${base}/admin/ServiceAccounts?domain=${account.domain}`, { headers: { Authorization: `Bearer ${process.env.ADMIN_TOKEN}` } }),
      ]) {
        const res = await call();
        expect({ status: res.status, type: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after') }).toEqual({
          status: 503, type: expect.stringContaining('application/problem+json'), retryAfter: expect.stringMatching(/^\d+$/),
        });
      }
      proxy.restore();
      await eventually(async () => (await tailsOn(base, account)) === 200, 15_000, 250);
    } finally {
      await gateway.stop();
      await proxy.close();
    }
  });
});
