/**
 * Both receiver packages against real callbacks of the stack: the suite records callbacks a real
 * receiver got (events, a Test call, callbacks during a secret rotation) as test vectors, checks
 * the npm package reaches each verdict, and runs the Python package's pytest suite on them with the
 * committed vectors; then a Flask receiver built with the Python package runs as a real process.
 *
 * Refreshing the committed recording (libs/webhook-signing/vectors/recorded.json), which both
 * packages' offline tests use: `npm run record-callbacks` (this file alone, writing it there).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { verifyStandardWebhook, verifyWebhookRequest } from '@tailsync/webhooks';
import { api } from './support/accounts';
import { eventually } from './support/eventually';
import { type ReceivedRequest } from './support/receiver';
import { deliveryOf, EVT, newSecret, publish, subscribed } from './support/webhooks';
import { freePort } from '@tailsync/service-kit/testing';

const REPO = join(__dirname, '..', '..');
const VECTORS = join(REPO, 'libs', 'webhook-signing', 'vectors');
const python = () => {
  const bin = process.env.TAILSYNC_TEST_PYTHON;
  if (!bin) throw new Error('TAILSYNC_TEST_PYTHON is not set: run the suite with `npm test`, which installs the Python receivers');
  return bin;
};
const pythonEnv = () => ({ ...process.env, PYTHONPATH: join(REPO, 'sdks', 'python', 'src'), PYTHONDONTWRITEBYTECODE: '1' });
const KEPT_HEADERS = /^(content-type|authorization|user-agent|webhook-.+)$/;
const OK = { ok: true };
const REFUSED_TEST = { token: { ok: false, step: 7, code: 'test-call' }, standardWebhooks: { ok: false, code: 'test-call' } };

/** A received callback as a shared test vector (libs/webhook-signing/vectors/README.md). */
const recorded = (kind: 'event' | 'test' | 'rotated', r: ReceivedRequest, secrets: string[]) => ({
  name: `a real ${kind === 'rotated' ? 'callback during a rotation' : kind === 'test' ? 'Test call' : 'event callback'} (${r.headers['webhook-id']}, attempt ${r.headers['webhook-attempt']})`,
  kind,
  secrets,
  now: Math.floor(r.receivedAt / 1000),
  options: { testCalls: 'refuse' },
  headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => KEPT_HEADERS.test(k)).map(([k, v]) => [k, String(v)])),
  body: r.rawBody.toString('utf8'),
  expect: kind === 'test' ? REFUSED_TEST : { token: OK, standardWebhooks: OK },
});

describe('the receiver packages on real callbacks', () => {
  it('the npm and the Python package reach the expected verdict on each, and the recording can be refreshed', async () => {
    const s = await subscribed();
    const events = await publish(s.account.domain, 2);
    for (const e of events) await deliveryOf(s.account, e.eventId, 'delivered');
    expect((await api(s.account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { hello: 'python' } })).body.success).toBe(true);
    const before = s.receiver.requests.slice();

    const rotatedTo = newSecret();
    expect((await api(s.account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: s.receiver.url, sharedSecret: rotatedTo })).status).toBe(200);
    const [after] = await publish(s.account.domain);
    await deliveryOf(s.account, after.eventId, 'delivered');
    const during = s.receiver.requests.slice(before.length);
    expect(during).toHaveLength(1);

    const vectors = [
      ...before.map((r) => recorded(String(r.headers['webhook-id']).startsWith('test_') ? 'test' : 'event', r, [s.secret])),
      ...during.map((r) => recorded('rotated', r, [rotatedTo, s.secret])),
    ];
    expect(vectors.map((v) => v.kind).sort()).toEqual(['event', 'event', 'rotated', 'test']);

    // the npm package (here from source; the packed one reads the committed recording in its spec)
    for (const v of vectors) {
      const now = new Date(v.now * 1000);
      const token = verifyWebhookRequest({ authorizationHeader: v.headers.authorization, rawBody: v.body, secret: v.secrets, now });
      const standard = verifyStandardWebhook({ headers: v.headers, rawBody: v.body, secret: v.secrets, now });
      expect({ token: token.ok ? OK : { ok: false, step: token.step, code: token.code }, standardWebhooks: standard.ok ? OK : { ok: false, code: standard.code } }).toEqual(v.expect);
    }

    // the Python package's whole suite, with these callbacks as its recording
    const file = { about: `Real callbacks of a running stack, recorded ${new Date().toISOString()} by e2e/src/webhooks-python.e2e.ts (npm run record-callbacks).`, vectors };
    const dir = join(process.env.TAILSYNC_TEST_DATA ?? tmpdir(), 'python-receiver', 'vectors');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(VECTORS, dir, { recursive: true });
    writeFileSync(join(dir, 'recorded.json'), `${JSON.stringify(file, null, 2)}\n`);
    const run = spawnSync(python(), ['-m', 'pytest', join(REPO, 'sdks', 'python', 'tests'), '-q', '-p', 'no:cacheprovider', '--color=no'], {
      cwd: join(REPO, 'sdks', 'python'),
      env: { ...pythonEnv(), TAILSYNC_VECTORS_DIR: dir },
      encoding: 'utf8',
      timeout: 120_000,
    });
    const summary = run.stdout.trim().split('\n').pop() ?? '';
    if (run.status !== 0) throw new Error(`pytest failed:\n${run.stdout}\n${run.stderr}`);
    expect(summary).toMatch(/^\d+ passed in /); // nothing skipped, nothing failed

    const refreshTo = process.env.TAILSYNC_RECORD_CALLBACKS_TO;
    if (refreshTo) writeFileSync(resolve(REPO, refreshTo), `${JSON.stringify(file, null, 2)}\n`);
  });

  it('a Flask receiver built with it takes real deliveries, and refuses those signed with another secret', async () => {
    const port = await freePort();
    const secret = newSecret();
    const flask = await startFlaskReceiver(port, secret);
    try {
      const url = `http://127.0.0.1:${port}/webhooks/tailsync`;
      const s = await subscribed();
      expect((await api(s.account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url, sharedSecret: secret })).status).toBe(200);
      const [event] = await publish(s.account.domain);
      const delivered = await deliveryOf(s.account, event.eventId, 'delivered');
      expect(delivered.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([204]);
      await eventually(async () => flask.printed.some((line) => line.includes(event.eventId)));
      expect(JSON.parse(flask.printed.find((line) => line.includes(event.eventId))!)).toEqual({
        webhookId: event.eventId, payload: { eventId: event.eventId, eventName: EVT, occurredAt: event.occurredAt, domain: s.account.domain, data: event.data },
      });

      // the same receiver, subscribed with a secret it does not hold: 401, which is not retried
      expect((await api(s.account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url, sharedSecret: newSecret() })).status).toBe(200);
      const [refused] = await publish(s.account.domain);
      const failed = await deliveryOf(s.account, refused.eventId, 'failed');
      expect(failed.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([401]);
    } finally {
      flask.process.kill();
    }
  });
});

async function startFlaskReceiver(port: number, secret: string): Promise<{ process: ChildProcess; printed: string[] }> {
  const child = spawn(python(), [join(REPO, 'sdks', 'python', 'examples', 'flask_receiver.py')], {
    env: { ...pythonEnv(), TAILSYNC_WEBHOOK_SECRET: secret, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const printed: string[] = [];
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => printed.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  await eventually(async () => log.includes('Running on'), 20_000).catch(() => {
    child.kill();
    throw new Error(`the Flask receiver did not start: ${log}`);
  });
  return { process: child, printed };
}
