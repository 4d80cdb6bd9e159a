import type { CallerContext, RpcReply } from '@tailsync/contracts';
import { DispatcherCopy } from '../testing/dispatcher-copy';
import { ensureSubscriptionEventsTopic, isolatedDatabase, newSharedSecret, testConfig, uniqueDomain } from '../testing/harness';
import { scripts, WebhookReceiver } from '@tailsync/webhooks/testing';
import { decodeCursor, encodeCursor, SubscriptionRequests } from './subscription-requests';

const EVT = 'Product.RiskAssessmentExecuted';

describe('SubscriptionRequests (the RPC handlers, real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let open: SubscriptionRequests;
  let guarded: SubscriptionRequests;
  let runtime: DispatcherCopy;
  let guardedCopy: DispatcherCopy;

  beforeAll(async () => {
    db = await isolatedDatabase('messages');
    runtime = await DispatcherCopy.create({ config: testConfig(), instanceId: 'spec', pool: db.pool });
    open = runtime.requests.subscriptions;
    await ensureSubscriptionEventsTopic();
    await runtime.events.start();
    guardedCopy = await DispatcherCopy.create({ config: testConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }), instanceId: 'spec-guarded', pool: db.pool });
    guarded = guardedCopy.requests.subscriptions;
  });
  afterAll(async () => {
    await runtime.events.stop();
    runtime.sender.close();
    await runtime.close();
    await guardedCopy.close();
    await db.drop();
  });

  const caller = (domain: string): CallerContext => ({ domain, source: 'client', requestId: 'r' });
  const req = <T>(domain: string, body: T) => ({ caller: caller(domain), body, deadline: Date.now() + 10_000 });
  const problem = (reply: RpcReply<unknown>) => (reply.ok ? undefined : reply.problem);

  it('seals the secret it was given under its sealing key, stores only that, and shows the view without it', async () => {
    const domain = uniqueDomain();
    const secret = newSharedSecret();
    const reply = await open.put(req(domain, { eventNames: [EVT], url: 'http://127.0.0.1:9/hook', sharedSecret: secret }));
    expect(reply).toEqual({
      ok: true,
      result: {
        eventNames: [EVT], url: 'http://127.0.0.1:9/hook', signatureScheme: 'hmac-sha256', maxPerSecond: null, maxInFlight: null, ordering: 'none', createdAt: expect.any(String), updatedAt: expect.any(String),
        secretUpdatedAt: expect.any(String), previousSecretValidUntil: null, status: 'active', disabledReason: null, disabledAt: null,
        health: { lastSuccessAt: null, lastFailureAt: null, failedDeliveriesInARow: 0 },
      },
    });
    const { rows } = await db.pool.query('select * from webhook_subscriptions where domain = $1', [domain]);
    expect(rows[0].secret_sealed).toMatch(new RegExp(`^v2\\.${runtime.box.sealingKeyId}\\.`));
    expect(runtime.box.decrypt(rows[0].secret_sealed, domain)).toBe(secret);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it.each(['http://127.0.0.1/hook', 'http://localhost:8080/', 'http://169.254.169.254/', 'http://[::ffff:10.0.0.1]/', 'http://0x7f000001/'])(
    'refuses the private url %s under url when private URLs are not allowed',
    async (url) => {
      const domain = uniqueDomain();
      const reply = await guarded.put(req(domain, { eventNames: [EVT], url, sharedSecret: newSharedSecret() }));
      expect(problem(reply)).toMatchObject({ kind: 'validation', fieldErrors: { url: [expect.stringMatching(/public address/)] } });
    },
  );

  it('refuses a missing secret (HMAC), a short secret, and bad event names', async () => {
    const domain = uniqueDomain();
    const reply = await open.put(req(domain, { eventNames: ['Nope'], url: 'ftp://x' }));
    expect(problem(reply)).toMatchObject({ kind: 'validation', fieldErrors: { eventNames: expect.any(Array), url: expect.any(Array), sharedSecret: ['sharedSecret is required.'] } });
    const short = await open.put(req(domain, { eventNames: [EVT], url: 'http://127.0.0.1/', sharedSecret: 'x'.repeat(63) }));
    expect(problem(short)).toMatchObject({ fieldErrors: { sharedSecret: [expect.stringMatching(/64 and 1024/)] } });
  });

  it('answers not-found for get, delete, test and redeliver without a subscription or delivery', async () => {
    const domain = uniqueDomain();
    expect(problem(await open.get(req(domain, {})))).toMatchObject({ kind: 'not-found' });
    expect(problem(await open.delete(req(domain, {})))).toMatchObject({ kind: 'not-found' });
    expect(problem(await open.test(req(domain, { payloadToEcho: {} })))).toMatchObject({ kind: 'not-found' });
    expect(problem(await open.redeliver(req(domain, { id: 'x' })))).toMatchObject({ kind: 'not-found' });
  });

  it('cuts the Test call to the request deadline so the gateway still gets an answer', async () => {
    const receiver = await WebhookReceiver.start(scripts.hang());
    try {
      const domain = uniqueDomain();
      await open.put(req(domain, { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret() }));
      const started = Date.now();
      const reply = await open.test({ caller: caller(domain), body: { payloadToEcho: { a: 1 } }, deadline: Date.now() + 1500 });
      expect(Date.now() - started).toBeLessThan(1500);
      expect(reply).toMatchObject({ ok: true, result: { success: false, diagnostics: { statusCode: null, error: expect.stringMatching(/no response within/) } } });
    } finally {
      await receiver.close();
    }
  });

  it('a Test call answered 410 reports it and leaves the subscription active', async () => {
    const receiver = await WebhookReceiver.start(scripts.status(410, 'gone'));
    try {
      const domain = uniqueDomain();
      await open.put(req(domain, { eventNames: [EVT], url: receiver.url, sharedSecret: newSharedSecret() }));
      const reply = await open.test(req(domain, { payloadToEcho: { a: 1 } }));
      expect(reply).toMatchObject({ ok: true, result: { success: false, diagnostics: { statusCode: 410, error: 'HTTP 410' } } });
      expect(await open.get(req(domain, {}))).toMatchObject({ ok: true, result: { status: 'active', disabledReason: null, disabledAt: null } });
    } finally {
      await receiver.close();
    }
  });

  it('saving a disabled subscription again enables it', async () => {
    const domain = uniqueDomain();
    const put = () => open.put(req(domain, { eventNames: [EVT], url: 'http://127.0.0.1:9/hook', sharedSecret: newSharedSecret() }));
    await put();
    await runtime.state.disable(domain, 'gone');
    expect(await open.get(req(domain, {}))).toMatchObject({ ok: true, result: { status: 'disabled', disabledReason: 'gone', disabledAt: expect.any(String) } });
    expect(await put()).toMatchObject({ ok: true, result: { status: 'active', disabledReason: null, disabledAt: null } });
  });

  it('validates the delivery log query', async () => {
    const domain = uniqueDomain();
    expect(problem(await open.list(req(domain, { status: 'gone' as never })))).toMatchObject({ fieldErrors: { status: expect.any(Array) } });
    expect(problem(await open.list(req(domain, { limit: 0 })))).toMatchObject({ fieldErrors: { limit: expect.any(Array) } });
    expect(problem(await open.list(req(domain, { cursor: 'bogus' })))).toMatchObject({ fieldErrors: { cursor: expect.any(Array) } });
    expect(await open.list(req(domain, {}))).toEqual({ ok: true, result: { items: [], nextCursor: null } });
  });

  it('round-trips cursors and refuses forged ones', () => {
    expect(decodeCursor(encodeCursor('12345'))).toBe('12345');
    expect(decodeCursor(Buffer.from('d:-1').toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from("d:1; drop table").toString('base64url'))).toBeUndefined();
    expect(decodeCursor(42)).toBeUndefined();
  });
});
