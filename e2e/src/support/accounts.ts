import { randomBytes } from 'node:crypto';
import { baseUrl } from './test-stack';

export interface TestAccount {
  token: string;
  clientId: string;
  clientSecret: string;
  domain: string;
}

/** A fresh domain name per test, so tests sharing one stack never see each other's data. */
export const freshDomain = (prefix = 'd') => `${prefix}-${randomBytes(5).toString('hex')}`;

/** A service account created through the admin API, with an access token from /oauth/token. */
export async function newServiceAccount(domain: string = freshDomain(), name = 'E2E client'): Promise<TestAccount> {
  const created = await fetch(`${baseUrl()}/admin/ServiceAccounts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${process.env.ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ domain, name }),
  });
  if (created.status !== 201) throw new Error(`creating a service account: ${created.status} ${await created.text()}`);
  const { clientId, clientSecret } = (await created.json()) as { clientId: string; clientSecret: string };
  const tokenRes = await fetch(`${baseUrl()}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  if (tokenRes.status !== 200) throw new Error(`getting a token: ${tokenRes.status} ${await tokenRes.text()}`);
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  return { token: access_token, clientId, clientSecret, domain };
}

/** A JSON call as an integrator makes it. */
export async function api(
  account: Pick<TestAccount, 'token'> | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      ...(account ? { Authorization: `Bearer ${account.token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}
