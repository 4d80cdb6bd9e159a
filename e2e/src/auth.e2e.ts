import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { api, freshDomain, newServiceAccount } from './support/accounts';
import { logLines, untilRequestLogged } from './support/app-logs';
import { baseUrl } from './support/test-stack';

const REPO = join(__dirname, '..', '..');
const admin = () => ({ token: process.env.ADMIN_TOKEN as string });

describe('service accounts and OAuth2 client credentials', () => {
  it('creates a service account with the admin token and shows the secret once', async () => {
    const domain = freshDomain();
    const res = await api(admin(), 'POST', '/admin/ServiceAccounts', { domain, name: 'Acme EFB' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ clientId: expect.any(String), clientSecret: expect.any(String), domain, name: 'Acme EFB' });
    expect(res.body.clientSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses the admin API without the admin token, and validates the domain', async () => {
    expect((await api(null, 'POST', '/admin/ServiceAccounts', { domain: 'x', name: 'n' })).status).toBe(401);
    expect((await api({ token: 'wrong' }, 'POST', '/admin/ServiceAccounts', { domain: 'x', name: 'n' })).status).toBe(401);
    const bad = await api(admin(), 'POST', '/admin/ServiceAccounts', { domain: 'Not_Valid', name: 'n' });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.domain).toBeDefined();
  });

  it('issues a bearer JWT for form, JSON and HTTP Basic credentials', async () => {
    const created = await api(admin(), 'POST', '/admin/ServiceAccounts', { domain: freshDomain(), name: 'n' });
    const { clientId, clientSecret } = created.body;
    const form = await fetch(`${baseUrl()}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });
    expect(form.status).toBe(200);
    const token = await form.json();
    expect(token).toEqual({ access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), token_type: 'Bearer', expires_in: 3600 });

    const json = await api(null, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    expect(json.status).toBe(200);

    const basic = await fetch(`${baseUrl()}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(basic.status).toBe(200);
  });

  it('answers 401 problems for an unknown client or a wrong secret', async () => {
    const account = await newServiceAccount();
    for (const [id, secret] of [['nobody', 'x'], [account.clientId, 'wrong-secret']]) {
      const res = await api(null, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: id, client_secret: secret });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.type).toMatch(/#unauthorized$/);
    }
  });

  it("answers the token endpoint's errors with RFC 6749's error member beside the problem's", async () => {
    const account = await newServiceAccount();
    const form = (fields: Record<string, string>) => fetch(`${baseUrl()}/oauth/token`, { method: 'POST', body: new URLSearchParams(fields) });
    const cases: [string, Promise<Response>, number, string][] = [
      ['wrong secret', form({ grant_type: 'client_credentials', client_id: account.clientId, client_secret: 'wrong' }), 401, 'invalid_client'],
      ['no credentials', form({ grant_type: 'client_credentials' }), 401, 'invalid_client'],
      ['password grant', form({ grant_type: 'password', username: 'u', password: 'p' }), 400, 'unsupported_grant_type'],
      ['no grant type', form({ client_id: account.clientId }), 400, 'invalid_request'],
      ['malformed JSON', fetch(`${baseUrl()}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"grant_type":' }), 400, 'invalid_request'],
      ['plain text', fetch(`${baseUrl()}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'grant_type=client_credentials' }), 415, 'invalid_request'],
    ];
    for (const [name, pending, status, error] of cases) {
      const res = await pending;
      const body = (await res.json()) as { error?: string; detail: string };
      expect({ name, status: res.status, error: body.error }).toEqual({ name, status, error });
      expect(body).toMatchObject({ status, isValid: false, error_description: body.detail, instance: expect.any(String) });
    }
    // elsewhere a problem stays a problem: no OAuth members
    expect((await api(null, 'GET', '/Tails')).body.error).toBeUndefined();
  });

  it('satisfies an OAuth2 client we did not write (requests-oauthlib)', () => {
    const python = process.env.TAILSYNC_API_CLIENTS_PYTHON;
    if (!python) throw new Error('TAILSYNC_API_CLIENTS_PYTHON is not set: run the suite with `npm test`, which installs requests-oauthlib');
    return newServiceAccount().then((account) => {
      const run = spawnSync(python, [join(REPO, 'e2e', 'api-clients', 'oauth_client.py'), baseUrl(), account.clientId, account.clientSecret], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, OAUTHLIB_INSECURE_TRANSPORT: '1' } });
      if (run.status !== 0) throw new Error(`oauth_client.py failed:\n${run.stdout}\n${run.stderr}`);
      expect(JSON.parse(run.stdout)).toEqual({
        granted: { token_type: 'Bearer' },
        wrong_secret: { raised: 'InvalidClientError', error: 'invalid_client', status: 401 },
        password_grant: { raised: 'UnsupportedGrantTypeError', error: 'unsupported_grant_type', status: 400 },
      });
    });
  });

  it('requires a valid bearer token on the API, but not on public endpoints', async () => {
    expect((await api(null, 'GET', '/Tails')).status).toBe(401);
    expect((await api({ token: 'a.b.c' }, 'GET', '/Tails')).status).toBe(401);
    for (const path of ['/Version', '/health/live', '/health/ready', '/openapi.json', '/asyncapi.json', '/docs/errors']) {
      expect((await api(null, 'GET', path)).status).toBe(200);
    }
  });

  it('never logs secrets: the stack log has no client secret or token', async () => {
    const account = await newServiceAccount();
    const requestId = `secret-check-${randomUUID()}`;
    await api(account, 'GET', '/Tails', undefined, { 'X-Request-Id': requestId });
    // Read once the request's own access line is written (the log is written asynchronously).
    await untilRequestLogged('gateway', requestId);
    const log = logLines('gateway').join('\n');
    expect(log).not.toContain(account.clientSecret);
    expect(log).not.toContain(account.token);
    expect(log).not.toContain(process.env.ADMIN_TOKEN as string);
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After once a service account exceeds its limit', async () => {
    const { startApp, waitForHttp } = await import('./support/test-stack');
    const gateway = startApp('gateway', 'gateway-rate-limited', { PORT: '13020', RATE_LIMIT_PER_MINUTE: '5' });
    try {
      await waitForHttp('http://127.0.0.1:13020/health/ready', 60_000, [gateway]);
      const account = await newServiceAccount();
      const statuses: number[] = [];
      let limited: Response | undefined;
      for (let i = 0; i < 7; i++) {
        const res = await fetch('http://127.0.0.1:13020/Tails', { headers: { Authorization: `Bearer ${account.token}` } });
        statuses.push(res.status);
        if (res.status === 429) limited = res;
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.slice(5)).toEqual([429, 429]);
      expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await limited?.json()) as { type: string; status: number };
      expect(body).toMatchObject({ status: 429, type: expect.stringMatching(/#rate-limited$/) });
      // Another service account has its own budget.
      const other = await newServiceAccount();
      expect((await fetch('http://127.0.0.1:13020/Tails', { headers: { Authorization: `Bearer ${other.token}` } })).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});
