/** Setting up through the public API, as an integrator does: service accounts, tokens, JSON calls. */
import { randomBytes } from 'node:crypto';

export interface Account {
  domain: string;
  clientId: string;
  token: string;
}

/** A domain name unique to this run. */
export const benchDomain = (prefix: string) => `bench-${prefix}-${randomBytes(4).toString('hex')}`;

export async function newAccount(baseUrl: string, adminToken: string, domain: string): Promise<Account> {
  const created = await call(baseUrl, adminToken, 'POST', '/admin/ServiceAccounts', { domain, name: `bench ${domain}` });
  if (created.status !== 201) throw new Error(`creating a service account: ${created.status} ${JSON.stringify(created.body)}`);
  const { clientId, clientSecret } = created.body as { clientId: string; clientSecret: string };
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  if (res.status !== 200) throw new Error(`getting a token: ${res.status} ${await res.text()}`);
  const { access_token } = (await res.json()) as { access_token: string };
  return { domain, clientId, token: access_token };
}

/** Many accounts, a few at a time (each costs two scrypt hashes in the gateway). */
export async function newAccounts(baseUrl: string, adminToken: string, domains: string[], concurrency = 4): Promise<Account[]> {
  const out: Account[] = new Array(domains.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < domains.length) {
        const i = next++;
        out[i] = await newAccount(baseUrl, adminToken, domains[i]);
      }
    }),
  );
  return out;
}

export async function call(
  baseUrl: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

export const jsonHeaders = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
