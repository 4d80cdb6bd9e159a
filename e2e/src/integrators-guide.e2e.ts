/**
 * docs/integrators.md, run as an integrator would: every snippet of the guide, in order, against
 * the shared stack. Shell snippets run in bash one after another, sharing their exported
 * variables; file snippets are written to a working directory (the receiver runs as a real
 * process, restarted as the guide says). Between snippets the test plays what the guide leaves to
 * the integrator and to the world: starting the receiver, events being published, an outage.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newServiceAccount, type TestAccount } from './support/accounts';
import { eventually } from './support/eventually';
import { baseUrl } from './support/test-stack';
import { deliveryOf, publish } from './support/webhooks';
import { freePort } from '@tailsync/service-kit/testing';

const REPO = join(__dirname, '..', '..');
const GUIDE = readFileSync(join(REPO, 'docs', 'integrators.md'), 'utf8');

interface Snippet {
  lang: string;
  id?: string;
  file?: string;
  code: string;
}

const snippets: Snippet[] = [...GUIDE.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)].map(([, lang, attrs, code]) => ({
  lang,
  id: /\bid=([\w-]+)/.exec(attrs)?.[1],
  file: /\bfile=([\w.-]+)/.exec(attrs)?.[1],
  code,
}));

describe('the integrators’ guide (docs/integrators.md)', () => {
  const work = join(process.env.TAILSYNC_TEST_DATA ?? join(REPO, '.data', 'test'), 'integrators-guide');
  const state = join(work, 'state.sh');
  const ran: string[] = [];
  let receiver: { child: ChildProcess; printed: unknown[] } | undefined;
  let account: TestAccount;
  let port: number;

  /** Runs the shell snippet `id` with the variables the earlier ones exported; returns its output lines. */
  const sh = (id: string): string[] => {
    const snippet = snippets.find((s) => s.lang === 'sh' && s.id === id);
    if (!snippet) throw new Error(`docs/integrators.md has no sh snippet id=${id}`);
    ran.push(id);
    const run = spawnSync('bash', ['-c', `set -euo pipefail\nsource ${state}\n${snippet.code}\nexport -p > ${state}`], { cwd: work, encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0) throw new Error(`snippet ${id} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    return run.stdout.trim().split('\n').map((line) => line.trimEnd());
  };
  const variable = (name: string) => spawnSync('bash', ['-c', `source ${state}; printf %s "$${name}"`], { encoding: 'utf8' }).stdout;

  async function startReceiver(secrets: string, file = 'receiver.ts'): Promise<void> {
    await stopReceiver();
    const child = spawn(process.execPath, [join(REPO, 'tools', 'run.js'), join(work, file)], {
      cwd: work,
      env: { ...process.env, TAILSYNC_WEBHOOK_SECRETS: secrets, PORT: String(port), TAILSYNC_URL: baseUrl(), TAILSYNC_DOMAIN: account.domain },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const printed: unknown[] = [];
    child.stdout!.on('data', (chunk: Buffer) => printed.push(...chunk.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))));
    receiver = { child, printed };
    // up once it refuses an unsigned call
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/webhooks/tailsync`, { method: 'POST' }).catch(() => undefined))?.status === 401, 30_000);
  }
  async function stopReceiver(): Promise<void> {
    if (!receiver) return;
    const { child } = receiver;
    receiver = undefined;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill();
    });
  }
  const received = (kind: 'event' | 'test', match: (payload: any) => boolean) =>
    eventually(async () => receiver?.printed.some((line: any) => line[kind] !== undefined && match(line[kind])), 20_000);

  beforeAll(async () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    for (const s of snippets.filter((s) => s.file)) writeFileSync(join(work, s.file!), s.code);
    account = await newServiceAccount();
    port = await freePort();
    writeFileSync(state, [
      `export TAILSYNC_URL=${baseUrl()}`,
      `export CLIENT_ID=${account.clientId}`,
      `export CLIENT_SECRET='${account.clientSecret}'`,
      `export RECEIVER_URL=http://127.0.0.1:${port}/webhooks/tailsync`,
      `export TAILSYNC_DOMAIN=${account.domain}`,
    ].join('\n'));
  });
  afterAll(() => stopReceiver());

  it('runs every snippet, in order, with the outcomes it describes', async () => {
    expect(sh('token')).toEqual(['{"items":0}']);

    const sync = sh('sync');
    expect(sync).toHaveLength(6);
    expect(sync.slice(0, 3)).toEqual([expect.stringMatching(/^efb-1001 created \d+$/), expect.stringMatching(/^efb-1002 created \d+$/), 'efb-1003 invalid: Tail number is required.']);
    expect(sync.slice(3)).toEqual([sync[0].replace('created', 'unchanged'), sync[1].replace('created', 'unchanged'), sync[2]]);

    expect(sh('conflict')).toEqual(['first: 200', expect.stringMatching(/^again: 409 .+/)]);

    // section 4: a secret, the receiver started with it, a subscription and a Test call
    sh('secret');
    const secret = variable('SECRET');
    expect(secret).toMatch(/^[0-9a-f]{96}$/);
    await startReceiver(secret);
    expect(sh('subscribe')).toEqual([`{"url":"http://127.0.0.1:${port}/webhooks/tailsync","status":"active"}`, '{"success":true,"status":204}']);
    await received('test', (p) => p.hello === 'from the guide');
    const [first] = await publish(account.domain);
    await received('event', (p) => p.eventId === first.eventId);

    // section 5: the receiver gets both secrets, then the subscription the new one
    sh('rotate-new-secret');
    const newSecret = variable('NEW_SECRET');
    await startReceiver(`${newSecret},${secret}`);
    expect(sh('rotate-save')).toEqual([expect.stringMatching(/^\{"rotated":true,"previousSecretValidUntil":"\d{4}-.+Z"\}$/)]);
    const [afterRotation] = await publish(account.domain);
    expect((await deliveryOf(account, afterRotation.eventId, 'delivered')).attempts).toHaveLength(1);
    await received('event', (p) => p.eventId === afterRotation.eventId);

    // section 6: an outage longer than the retries (3 attempts in this stack), then the recovery
    await stopReceiver();
    const [missed] = await publish(account.domain);
    await deliveryOf(account, missed.eventId, 'failed');
    await startReceiver(`${newSecret},${secret}`);
    const recovered = sh('recover');
    expect(JSON.parse(recovered[0])).toEqual(expect.arrayContaining([{ eventId: missed.eventId, status: 'failed', attempts: 3 }]));
    expect(JSON.parse(recovered[1]).deliveries).toBeGreaterThanOrEqual(1);
    await received('event', (p) => p.eventId === missed.eventId);

    // section 7: the receiver with the public keys alone, the subscription switched to ed25519
    await startReceiver('', 'receiver-ed25519.ts');
    expect(sh('ed25519-subscribe')).toEqual(['{"signatureScheme":"ed25519"}', '[{"kty":"OKP","crv":"Ed25519","alg":"EdDSA"}]', '{"success":true}']);
    await received('test', (p) => p.hello === 'signed with ed25519');
    const [signedByKey] = await publish(account.domain);
    await received('event', (p) => p.eventId === signedByKey.eventId);

    // section 8: the polling door, read through to its end, then again for what came since
    // An event shows once every transaction older than its own has ended: poll again until all have come.
    const pollFor = async (ids: string[]) => {
      const lines: string[] = [];
      await eventually(async () => lines.push(...sh('poll').filter(Boolean)) >= ids.length, 20_000, 500);
      expect(lines).toEqual(ids.map((eventId) => JSON.stringify({ eventId, eventName: 'Product.RiskAssessmentExecuted', signed: true })));
    };
    await pollFor([first, afterRotation, missed, signedByKey].map((e) => e.eventId));
    const [later] = await publish(account.domain);
    await deliveryOf(account, later.eventId, 'delivered');
    await pollFor([later.eventId]);

    // nothing in the guide went unrun (the polling snippet twice, as the guide says)
    expect(ran.filter((id, i) => ran.indexOf(id) === i)).toEqual(snippets.filter((s) => s.lang === 'sh').map((s) => s.id));
    expect(snippets.filter((s) => s.lang !== 'sh').map((s) => s.file)).toEqual(['fleet.json', 'sync_fleet.py', 'receiver.ts', 'receiver-ed25519.ts']);
  }, 240_000);
});

