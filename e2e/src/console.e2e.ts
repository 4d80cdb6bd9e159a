/** The operators' console in a real browser (Debian's Chromium driven by playwright-core) on the whole stack. */
import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';
import { api, freshDomain, newServiceAccount } from './support/accounts';
import { countBecomes, launchChromium, screenshot, seriousViolations, textBecomes } from './support/browser';
import { eventually } from './support/eventually';
import { scripts } from './support/receiver';
import { deliveryOf, EVT, newSecret, publish, publishedBeforeSubscribing, receiver, subscribed } from './support/webhooks';
import { baseUrl, startApp, waitForHttp } from './support/test-stack';

const HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">';
const adminToken = () => process.env.ADMIN_TOKEN as string;

let browser: Browser;
let context: BrowserContext;
let page: Page;
const accept = (dialog: Dialog) => void dialog.accept();

async function tokenStatus(clientId: string, clientSecret: string): Promise<number> {
  return (await api(null, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })).status;
}

async function signIn(p: Page, token: string): Promise<void> {
  await p.goto(`${baseUrl()}/console`);
  await p.getByLabel('Admin token').fill(token);
  await p.getByRole('button', { name: 'Sign in' }).click();
}

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('dialog', accept);
});

afterAll(async () => {
  await browser?.close();
});

describe('the console', () => {
  it('serves nothing but the sign-in page without a session, each page with a Content-Security-Policy', async () => {
    const res = await fetch(`${baseUrl()}/console`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('Admin token');
    for (const path of ['/console/assets/app.js', '/console/assets/pages/service-accounts.js', '/console/session', '/admin/ServiceAccounts']) {
      expect((await fetch(`${baseUrl()}${path}`)).status).toBe(401);
    }
    expect((await fetch(`${baseUrl()}/console/assets/../../main.ts`)).status).toBe(404);
  });

  it('does not exist on a gateway without ADMIN_TOKEN, like the admin API', async () => {
    const gateway = startApp('gateway', 'gateway-without-admin', { PORT: '13022', ADMIN_TOKEN: '' });
    try {
      await waitForHttp('http://127.0.0.1:13022/health/ready', 60_000, [gateway]);
      for (const path of ['/console', '/console/assets/sign-in.js', '/console/session', '/admin/Overview']) {
        expect((await fetch(`http://127.0.0.1:13022${path}`)).status).toBe(404);
      }
      const disable = await fetch('http://127.0.0.1:13022/admin/Domains/acme/Subscription/Disable', { method: 'POST', headers: { Authorization: `Bearer ${adminToken()}` } });
      expect(disable.status).toBe(404);
      const signIn = await fetch('http://127.0.0.1:13022/console/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: '' }) });
      expect(signIn.status).toBe(404);
    } finally {
      await gateway.stop();
    }
  });

  it('signs in with the admin token only, into an HttpOnly, SameSite=Strict cookie (Secure over HTTPS)', async () => {
    await signIn(page, 'not-the-token');
    await textBecomes(page.getByRole('alert'), 'That is not the admin token.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');

    await signIn(page, adminToken());
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'tailsync_console', httpOnly: true, sameSite: 'Strict', secure: false });
    for (const path of ['/console', '/console/assets/app.js', '/console/assets/vendor/uPlot.iife.min.js']) {
      const headers = (await page.request.get(`${baseUrl()}${path}`)).headers();
      expect(headers).toMatchObject({ 'content-security-policy': expect.stringContaining("default-src 'none'"), 'x-content-type-options': 'nosniff' });
    }

    const https = await fetch(`${baseUrl()}/console/session`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Forwarded-Proto': 'https' }, body: JSON.stringify({ token: adminToken() }),
    });
    expect(https.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict; Secure$/);
    const crossSite = await fetch(`${baseUrl()}/console/session`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' }, body: JSON.stringify({ token: adminToken() }),
    });
    expect(crossSite.status).toBe(401);
  });

  it('refuses a state-changing admin call with the session cookie but without its CSRF token', async () => {
    const account = (await api({ token: adminToken() }, 'POST', '/admin/ServiceAccounts', { domain: freshDomain(), name: 'csrf' })).body;
    const [cookie] = await context.cookies();
    const headers = { Cookie: `${cookie.name}=${cookie.value}` };
    expect((await fetch(`${baseUrl()}/admin/ServiceAccounts?domain=${account.domain}`, { headers })).status).toBe(200);
    const forged = await fetch(`${baseUrl()}/admin/ServiceAccounts/${account.clientId}/Disable`, { method: 'POST', headers });
    expect(forged.status).toBe(401);
    expect(await tokenStatus(account.clientId, account.clientSecret)).toBe(200);
  });

  it('creates an account (secret shown once), renders a hostile name as text, disables, enables, rotates and deletes it', async () => {
    const domain = freshDomain('console');
    await page.goto(`${baseUrl()}/console#/service-accounts`);
    await page.locator('input[name=new-domain]').fill(domain);
    await page.locator('input[name=new-name]').fill(HOSTILE);
    await page.getByRole('button', { name: 'Create' }).click();
    const clientId = (await page.locator('#shown-client-id').textContent()) as string;
    const secret = (await page.locator('#shown-client-secret').textContent()) as string;
    expect(await tokenStatus(clientId, secret)).toBe(200);

    const row = page.getByRole('row').filter({ hasText: clientId });
    await textBecomes(row.getByRole('cell').first(), HOSTILE);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('main script, main img').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'service-accounts');

    await row.getByRole('button', { name: /^Disable/ }).click();
    await row.getByText('disabled', { exact: true }).waitFor();
    expect(await tokenStatus(clientId, secret)).toBe(401);
    await row.getByRole('button', { name: /^Enable/ }).click();
    await row.getByText('active', { exact: true }).waitFor();
    expect(await tokenStatus(clientId, secret)).toBe(200);

    await row.getByRole('button', { name: /^Rotate/ }).click();
    const rotated = await eventually(async () => {
      const shown = page.locator('#shown-client-secret');
      const text = (await shown.count()) === 1 ? await shown.textContent() : null;
      return text !== null && text !== secret && text;
    });
    expect(await tokenStatus(clientId, secret)).toBe(401);
    expect(await tokenStatus(clientId, rotated)).toBe(200);

    await row.getByRole('button', { name: /^Delete/ }).click();
    await countBecomes(page.getByRole('row').filter({ hasText: clientId }), 0);
    expect(await tokenStatus(clientId, rotated)).toBe(401);
  });

  it("disables an account and its access token is refused", async () => {
    const created = (await api({ token: adminToken() }, 'POST', '/admin/ServiceAccounts', { domain: freshDomain(), name: 'leaked' })).body;
    const token = (await api(null, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret })).body.access_token;
    expect((await api({ token }, 'GET', '/Tails')).status).toBe(200);
    await page.goto(`${baseUrl()}/console#/service-accounts?domain=${created.domain}`);
    await page.getByRole('button', { name: `Disable leaked (${created.clientId})` }).click();
    await eventually(async () => (await api({ token }, 'GET', '/Tails')).status === 401, 5_000);
  });

  it("shows a domain's subscription with its health, and a test call's diagnostics", async () => {
    const s = await subscribed(scripts.status(503, HOSTILE));
    await page.goto(`${baseUrl()}/console#/subscriptions?domain=${s.account.domain}`);
    await textBecomes(page.locator('.facts dd').first(), s.receiver.url);
    await page.getByRole('button', { name: 'Send a test call' }).click();
    const result = page.getByLabel('Test call result');
    await textBecomes(result.locator('dd').nth(1), '503');
    await textBecomes(result.locator('dd').first(), 'no');
    await textBecomes(result.locator('pre'), HOSTILE); // the receiver's body, shown as text
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('main script, main img').count()).toBe(0);
    expect(s.receiver.requests.length).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'subscriptions');
  });

  it("shows an ed25519 subscription's scheme, the kids of its public JWK Set and its limits", async () => {
    const s = await subscribed();
    await api(s.account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: s.receiver.url, signatureScheme: 'ed25519', maxInFlight: 4 });
    const { keys } = (await api(s.account, 'GET', `/.well-known/webhooks/jwks.json?domain=${s.account.domain}`)).body;
    await page.goto(`${baseUrl()}/console#/subscriptions?domain=${s.account.domain}`);
    await textBecomes(page.locator('dt', { hasText: 'Signature scheme' }).locator('xpath=following-sibling::dd[1]'), 'ed25519 (the domain key; v1a, EdDSA)');
    const publicKeys = page.locator('dt', { hasText: 'Public keys' }).locator('xpath=following-sibling::dd[1]');
    await textBecomes(publicKeys, `JWK Set: ${keys[0].kid} current Revoke`);
    await textBecomes(page.locator('dt', { hasText: 'Limits' }).locator('xpath=following-sibling::dd[1]'), 'no cap per second, 4 in flight');
    expect(await seriousViolations(page)).toEqual([]);

    // A leaked key: revoked from here, out of the set at once, a new one signing.
    await page.getByRole('button', { name: `Revoke key ${keys[0].kid}` }).click();
    await textBecomes(page.getByRole('status'), `Key ${keys[0].kid} revoked.`);
    const after = (await api(s.account, 'GET', `/.well-known/webhooks/jwks.json?domain=${s.account.domain}`)).body.keys;
    expect(after.map((k: { kid: string }) => k.kid)).not.toContain(keys[0].kid);
    await textBecomes(publicKeys, `JWK Set: ${after[0].kid} current Revoke`);
  });

  it("shows a fifo subscription's ordering, and backfills the events published before it from the Deliveries page", async () => {
    const account = await newServiceAccount();
    const old = await publishedBeforeSubscribing(account.domain, 2);
    const r = await receiver();
    await api(account, 'POST', '/WebhookSubscriptions', { eventNames: [EVT], url: r.url, sharedSecret: newSecret(), ordering: 'fifo', maxPerSecond: 20 });
    await page.goto(`${baseUrl()}/console#/subscriptions?domain=${account.domain}`);
    await textBecomes(page.locator('dt', { hasText: 'Ordering' }).locator('xpath=following-sibling::dd[1]'), 'fifo (one event at a time, in the topic order)');
    await textBecomes(page.locator('dt', { hasText: 'Limits' }).locator('xpath=following-sibling::dd[1]'), '20 per second, no cap in flight');

    await page.goto(`${baseUrl()}/console#/deliveries?domain=${account.domain}`);
    await page.locator('input[name=since]').fill(new Date(Date.now() - 120_000).toISOString());
    await page.getByRole('button', { name: 'Backfill from the topic' }).click();
    await textBecomes(page.getByRole('status'), /^Backfill [0-9a-f-]{36} queued\.$/);
    for (const e of old) await deliveryOf(account, e.eventId, 'delivered');
    await page.getByRole('button', { name: 'Show' }).click();
    for (const e of old) await page.getByRole('row').filter({ hasText: e.eventId }).getByText('delivered (backfilled)').waitFor();
    // The Backfills table lists the job, done, with what it found and stored.
    const job = page.getByRole('table', { name: 'Backfills, newest first' }).getByRole('row').nth(1);
    await job.getByText('done').waitFor();
    expect(await job.getByRole('cell').nth(4).textContent()).toBe('2');
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual(old.map((e) => e.eventId));
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("disables a domain's subscription after a confirmation, shows its events skipped meanwhile, and enables it again", async () => {
    const s = await subscribed();
    const status = page.locator('.facts dd').nth(2);
    await page.goto(`${baseUrl()}/console#/subscriptions?domain=${s.account.domain}`);
    await textBecomes(status, 'active');

    page.off('dialog', accept); // this once, answer Cancel
    const cancelled = new Promise<string>((resolve) => page.once('dialog', (d) => void d.dismiss().then(() => resolve(d.message()))));
    await page.getByRole('button', { name: 'Disable' }).click();
    expect(await cancelled).toMatch(new RegExp(`^Disable the subscription of ${s.account.domain}\\?`));
    page.on('dialog', accept);
    expect((await api(s.account, 'GET', '/WebhookSubscriptions')).body.status).toBe('active');

    await page.getByRole('button', { name: 'Disable' }).click();
    await textBecomes(status, /^disabled \(operator since \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\)$/);
    await textBecomes(page.getByRole('status'), 'Disabled.');
    expect((await api(s.account, 'GET', '/WebhookSubscriptions')).body).toMatchObject({ status: 'disabled', disabledReason: 'operator' });
    expect(await seriousViolations(page)).toEqual([]);

    const [skipped] = await publish(s.account.domain, 1);
    await deliveryOf(s.account, skipped.eventId, 'skipped');
    await page.goto(`${baseUrl()}/console#/deliveries?domain=${s.account.domain}`);
    await page.getByRole('row').filter({ hasText: skipped.eventId }).getByText('skipped', { exact: true }).waitFor();

    await page.goto(`${baseUrl()}/console#/subscriptions?domain=${s.account.domain}`);
    await page.getByRole('button', { name: 'Enable' }).click();
    await textBecomes(status, 'active');
    const [delivered] = await publish(s.account.domain, 1);
    await deliveryOf(s.account, delivered.eventId, 'delivered');
    expect(s.receiver.requests.map((r) => JSON.parse(r.rawBody.toString('utf8')).eventId)).toEqual([delivered.eventId]);
  });

  it('shows a delivery to a failing receiver fail with its attempts, and redelivers it once the receiver recovers', async () => {
    const s = await subscribed(scripts.status(503));
    const [event] = await publish(s.account.domain, 1);
    await deliveryOf(s.account, event.eventId, 'failed');

    await page.goto(`${baseUrl()}/console#/deliveries?domain=${s.account.domain}`);
    const row = page.getByRole('row').filter({ hasText: event.eventId });
    await row.getByText('failed', { exact: true }).waitFor();
    await countBecomes(row.getByRole('listitem'), 3);
    await textBecomes(row.getByRole('listitem').first(), /HTTP 503/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'deliveries');

    s.receiver.answer(scripts.status(200));
    await row.getByRole('button', { name: `Redeliver ${event.eventId}` }).click();
    await textBecomes(page.getByRole('status'), /started again/);
    await deliveryOf(s.account, event.eventId, 'delivered');
    await page.getByRole('button', { name: 'Show' }).click();
    await row.getByText('delivered', { exact: true }).waitFor();
    await textBecomes(row.getByRole('listitem').last(), /HTTP 200/);
  });

  it("finds a tail by Mapped ID and by tail number, shows hostile values as text, and reads its history as a timeline", async () => {
    const account = await newServiceAccount(freshDomain('tails'));
    const mappedId = '<img src=x onerror="window.__pwned=1">';
    const tailNumber = '<script>N1</script>';
    expect((await api(account, 'PUT', '/Tails', { tailId: mappedId, tailNumber, registrationNumber: '<script>window.__pwned=1</script>' })).status).toBeLessThan(300);
    expect((await api(account, 'POST', '/Tails/ChangeTailNumber', { tailId: mappedId, newTailNumber: 'N2<b>x</b>' })).status).toBe(200);

    await page.goto(`${baseUrl()}/console#/tails`);
    await page.locator('input[name=domain]').fill(account.domain);
    await page.locator('select[name=by]').selectOption('mappedId');
    await page.locator('input[name=term]').fill(mappedId);
    await page.getByRole('button', { name: 'Find' }).click();
    const row = page.getByRole('row').filter({ hasText: mappedId });
    await textBecomes(row.getByRole('cell').first(), 'N2<b>x</b>');
    await row.getByRole('button', { name: /^History/ }).click();
    const events = page.locator('.timeline > li');
    await countBecomes(events, 2);
    await textBecomes(events.first().locator('strong'), 'TailCreated');
    await textBecomes(events.first().locator('pre'), /<script>N1<\/script>/);
    await textBecomes(events.last().locator('strong'), 'TailRenumbered');
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('main script, main img, main b').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'tails');

    await page.locator('select[name=by]').selectOption('tailNumber');
    await page.locator('input[name=term]').fill('n2<B>X</B>');
    await page.getByRole('button', { name: 'Find' }).click();
    await textBecomes(page.getByRole('row').filter({ hasText: mappedId }).getByRole('cell').nth(1), /^\d+$/);
  });

  it('lists every domain with its accounts, tails and subscription', async () => {
    const s = await subscribed();
    await api(s.account, 'PUT', '/Tails', { tailId: 'm-1', tailNumber: 'N1DOM' });
    await page.goto(`${baseUrl()}/console#/domains`);
    const row = page.getByRole('row').filter({ hasText: s.account.domain });
    await textBecomes(row.getByRole('cell').nth(2), '1');
    await textBecomes(row.getByRole('cell').nth(3), `active ${s.receiver.url}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'domains');
  });

  it('shows the last hour as charts for the whole system and a domain, refreshes by itself, and measures its first paint', async () => {
    const s = await subscribed(scripts.status(503));
    const events = await publish(s.account.domain, 2);
    for (const e of events) await deliveryOf(s.account, e.eventId, 'failed');

    const fresh = await context.newPage(); // a first load, to measure its paint
    await fresh.goto(`${baseUrl()}/console#/overview`);
    const domainRow = fresh.getByRole('row').filter({ hasText: s.account.domain });
    await textBecomes(domainRow.getByRole('cell').nth(4), '2'); // failed in the hour
    const paint = await fresh.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
    process.stdout.write(`[console] overview first contentful paint ${paint?.toFixed(0)} ms\n`);
    expect(paint).toBeGreaterThan(0);
    await countBecomes(fresh.locator('figure canvas'), 2);
    await textBecomes(fresh.getByRole('row').filter({ hasText: s.receiver.url }).getByRole('cell').nth(3), /^[1-9]\d*$/);
    await fresh.locator('select[name=scope]').selectOption(s.account.domain);
    expect(await seriousViolations(fresh)).toEqual([]);
    await screenshot(fresh, 'overview');

    const updated = (await fresh.getByText(/^Updated /).textContent()) as string;
    await eventually(async () => (await fresh.getByText(/^Updated /).textContent()) !== updated, 15_000);
    expect(await fresh.locator('select[name=scope]').inputValue()).toBe(s.account.domain); // the choice survives a refresh
    await fresh.close();
  });

  it('signs out: the session ends, even for a copy of its cookie', async () => {
    await page.goto(`${baseUrl()}/console#/service-accounts`);
    const [cookie] = await context.cookies();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await context.cookies()).toEqual([]);
    const copied = { Cookie: `${cookie.name}=${cookie.value}` };
    for (const path of ['/admin/Overview', '/console/session', '/console/assets/app.js']) {
      expect((await fetch(`${baseUrl()}${path}`, { headers: copied })).status).toBe(401);
    }
  });
});
