/**
 * The Python receiver package (sdks/python, `tailsync-webhooks`) against real callbacks of the
 * stack: the e2e suite records callbacks (events, a Test call, callbacks during a secret rotation)
 * and runs the package's pytest suite on them; then a Flask receiver built with the package runs as
 * a real process subscribed to the stack.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from './support/accounts';
import { eventually } from './support/eventually';
import { type ReceivedRequest } from './support/receiver';
import { deliveryOf, EVT, newSecret, publish, subscribed } from './support/webhooks';

const REPO = join(__dirname, '..', '..');
const python = () => {
  const bin = process.env.TAILSYNC_TEST_PYTHON;
  if (!bin) throw new Error('TAILSYNC_TEST_PYTHON is not set: run the suite with `npm test`, which installs the Python receivers');
  return bin;
};
const recorded = (kind: string, r: ReceivedRequest, secrets: string[]) => ({
  kind, secrets, body: r.rawBody.toString('base64'), headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)])),
});

describe('the Python receiver package', () => {
  it("passes its pytest suite on the stack's real callbacks", async () => {
    const s = await subscribed();
    const events = await publish(s.account.domain, 2);
    for (const e of events) await deliveryOf(s.account, e.eventId, 'delivered');
    expect((await api(s.account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { hello: 'python' } })).body.success).toBe(true);
    const before = s.receiver.requests.slice();

    const rotatedTo = newSecret();
    expect((await api(s.account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: s.receiver.url, sharedSecret: rotatedTo })).status).toBe(200);
    const [after] = await publish(s.account.domain);
    await deliveryOf(s.account, after.eventId, 'delivered');
    expect((await api(s.account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { rotated: true } })).body.success).toBe(true);
    const during = s.receiver.requests.slice(before.length);
    expect(during).toHaveLength(2);

    const callbacks = [
      ...before.map((r) => recorded(String(r.headers['webhook-id']).startsWith('test_') ? 'test' : 'event', r, [s.secret])),
      ...during.map((r) => recorded('rotated', r, [rotatedTo, s.secret])),
    ];
    const dir = join(process.env.TAILSYNC_TEST_DATA ?? tmpdir(), 'python-receiver');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'callbacks.json');
    writeFileSync(file, JSON.stringify(callbacks));

    const run = spawnSync(python(), ['-m', 'pytest', join(REPO, 'sdks', 'python'), '-q', '-p', 'no:cacheprovider', '--color=no'], {
      cwd: join(REPO, 'sdks', 'python'),
      env: { ...process.env, TAILSYNC_CALLBACKS: file, PYTHONDONTWRITEBYTECODE: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    const summary = run.stdout.trim().split('\n').pop() ?? '';
    if (run.status !== 0) throw new Error(`pytest failed:\n${run.stdout}\n${run.stderr}`);
    expect(summary).toMatch(/^\d+ passed in /); // nothing skipped, nothing failed
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startFlaskReceiver(port: number, secret: string): Promise<{ process: ChildProcess; printed: string[] }> {
  const child = spawn(python(), [join(REPO, 'sdks', 'python', 'examples', 'flask_receiver.py')], {
    env: { ...process.env, TAILSYNC_WEBHOOK_SECRET: secret, PORT: String(port), PYTHONDONTWRITEBYTECODE: '1' },
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
