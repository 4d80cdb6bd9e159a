/**
 * Only the dispatcher holds the sealing key (contract, "Running on more than one host"): the
 * gateway runs without `WEBHOOK_SECRET_KEY`, passes a tenant's secret on, and subscriptions are
 * still created and rotated; what is stored is sealed under the dispatcher's key, named by its id.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { standardWebhooksSecret } from '@tailsync/webhooks';
import { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { api, newServiceAccount } from './support/accounts';
import { receiver, EVT, newSecret } from './support/webhooks';

let db: Pool;
beforeAll(() => {
  db = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
});
afterAll(() => db.end());

/** The environment a process was started with, as the kernel keeps it. */
function environmentOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

const sharedPid = (instance: string): number =>
  (JSON.parse(readFileSync(join(process.env.TAILSYNC_TEST_DATA ?? '/tmp', 'e2e-shared-pids.json'), 'utf8')) as Record<string, number>)[instance];

// The key id as the contract's operators read it: 16 hex of SHA-256 of "tailsync-sealing-key:" + the key's bytes.
const keyIdOf = (base64Key: string) => createHash('sha256').update('tailsync-sealing-key:').update(Buffer.from(base64Key, 'base64')).digest('hex').slice(0, 16);

describe('the sealing key, held by the dispatcher alone', () => {
  it('is in the environment of the dispatcher and not of the gateway (nor of tail-sync)', () => {
    const names = (instance: string) => Object.keys(environmentOf(sharedPid(instance))).filter((k) => k.startsWith('WEBHOOK_SECRET_KEY'));
    expect({ gateway: names('gateway'), tailSync: names('tail-sync'), dispatcher: names('webhook-dispatcher') })
      .toEqual({ gateway: [], tailSync: [], dispatcher: ['WEBHOOK_SECRET_KEY'] });
  });

  it('a subscription is created and its secret rotated through that gateway, signed with both secrets, stored sealed under the key id', async () => {
    const [account, r] = await Promise.all([newServiceAccount(), receiver()]);
    const [first, second] = [newSecret(), newSecret()];
    expect((await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: first })).status).toBe(200);
    const rotated = await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: r.url, sharedSecret: second });
    expect({ status: rotated.status, previousSecretValidUntil: typeof rotated.body.previousSecretValidUntil }).toEqual({ status: 200, previousSecretValidUntil: 'string' });
    expect(JSON.stringify(rotated.body)).not.toContain(second);

    const test = await api(account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { sealed: 'by the dispatcher' } });
    expect(test.body.success).toBe(true);
    const [call] = r.requests;
    const headers = Object.fromEntries(Object.entries(call.headers).map(([k, v]) => [k, String(v)]));
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2); // the new secret's signature, then the previous one's
    for (const secret of [second, first]) expect(new Webhook(standardWebhooksSecret(secret)).verify(call.rawBody.toString('utf8'), headers)).toEqual({ sealed: 'by the dispatcher' });

    const { rows } = await db.query<{ secret_sealed: string; previous_secret_sealed: string }>(
      'select secret_sealed, previous_secret_sealed from webhook_subscriptions where domain = $1', [account.domain]);
    const sealed = new RegExp(`^v2\\.${keyIdOf(process.env.WEBHOOK_SECRET_KEY!)}\\.`);
    expect(rows[0]).toEqual({ secret_sealed: expect.stringMatching(sealed), previous_secret_sealed: expect.stringMatching(sealed) });
  });

  it("a domain's Ed25519 key is made and rotated through that gateway, its private half sealed under the key id", async () => {
    const [account, r] = await Promise.all([newServiceAccount(), receiver()]);
    expect((await api(account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: r.url, signatureScheme: 'ed25519' })).status).toBe(200);
    expect((await api(account, 'POST', '/WebhookSubscriptions/SigningKeys/Rotate')).status).toBe(200);
    const { rows } = await db.query<{ private_seed_sealed: string }>('select private_seed_sealed from webhook_signing_keys where domain = $1', [account.domain]);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.private_seed_sealed).toMatch(new RegExp(`^v2\\.${keyIdOf(process.env.WEBHOOK_SECRET_KEY!)}\\.`));
    expect((await api(account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { signed: 'ed25519' } })).body.success).toBe(true);
  });
});
