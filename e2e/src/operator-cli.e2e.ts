import { spawnSync } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { standardWebhooksSecret } from '@tailsync/webhooks';
import { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { api, freshDomain, newServiceAccount } from './support/accounts';
import { appEnv, baseUrl } from './support/test-stack';
import { EVT, newSecret, receiver } from './support/webhooks';

/** A secret sealed as the previous release sealed it: `v1.<iv>.<tag>.<ciphertext>`, no key id, bound to the domain. */
function sealedByThePreviousRelease(secret: string, domain: string, base64Key: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(base64Key, 'base64'), iv);
  cipher.setAAD(Buffer.from(`tailsync.webhook-secret:${domain}`, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

const ROOT = join(__dirname, '..', '..');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'tools', 'run.js'), join(ROOT, 'tools', 'cli', 'main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...appEnv(), BASE_URL: baseUrl() },
    encoding: 'utf8',
  });

describe('operator commands (npm run cli)', () => {
  it('rebuild-projections replays the event store into the same read model, online', async () => {
    const a = await newServiceAccount();
    await api(a, 'PUT', '/Tails/Bulk', { tails: Array.from({ length: 20 }, (_, i) => ({ tailId: `rb-${i}`, tailNumber: `NRB${i}` })) });
    await api(a, 'POST', '/Tails/Deactivate', { tailId: 'rb-3' });
    await api(a, 'POST', '/Tails/ChangeTailNumber', { tailId: 'rb-4', newTailNumber: 'NRB4-NEW' });
    const before = await api(a, 'GET', '/Tails?limit=100');

    const run = cli('rebuild-projections');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/rebuilt the tails read model from \d+ events/);

    const after = await api(a, 'GET', '/Tails?limit=100');
    expect(after.body).toEqual(before.body);
  });

  it('create-service-account wraps the admin API', async () => {
    const domain = freshDomain();
    const run = cli('create-service-account', '--domain', domain, '--name', 'From the CLI');
    expect(run.status).toBe(0);
    const created = JSON.parse(run.stdout);
    expect(created).toMatchObject({ domain, name: 'From the CLI', clientId: expect.any(String), clientSecret: expect.any(String) });
    const token = await api(null, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret });
    expect(token.status).toBe(200);
  });

  it('rewrap-sealed-values seals a value of the previous release again under the key id, and the subscription keeps signing with it', async () => {
    const [account, r] = await Promise.all([newServiceAccount(), receiver()]);
    const secret = newSecret();
    expect((await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: secret })).status).toBe(200);
    const db = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    try {
      const legacy = sealedByThePreviousRelease(secret, account.domain, process.env.WEBHOOK_SECRET_KEY!);
      await db.query('update webhook_subscriptions set secret_sealed = $2 where domain = $1', [account.domain, legacy]);

      const run = cli('rewrap-sealed-values');
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      const [, rewrapped, keyId] = /^rewrapped (\d+) sealed values under key ([0-9a-f]{16})\n$/.exec(run.stdout) ?? [];
      expect(Number(rewrapped)).toBeGreaterThanOrEqual(1);
      expect(run.stdout).not.toContain(secret);
      const { rows } = await db.query<{ secret_sealed: string }>('select secret_sealed from webhook_subscriptions where domain = $1', [account.domain]);
      expect(rows[0].secret_sealed.startsWith(`v2.${keyId}.`)).toBe(true);
    } finally {
      await db.end();
    }

    const test = await api(account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { rewrapped: true } });
    expect(test.body.success).toBe(true);
    const headers = Object.fromEntries(Object.entries(r.requests[0].headers).map(([k, v]) => [k, String(v)]));
    expect(new Webhook(standardWebhooksSecret(secret)).verify(r.requests[0].rawBody.toString('utf8'), headers)).toEqual({ rewrapped: true });
    expect(cli('rewrap-sealed-values').stdout).toMatch(/^rewrapped 0 sealed values under key/);
  });
});
