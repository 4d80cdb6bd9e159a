/**
 * The operators' door, on a real Docker engine: docker-compose.yml brought up with `up --wait`,
 * used only through what it publishes (the gateway's port, Kafka's EXTERNAL listener, the test
 * receiver's port), crashed under load, and taken down and up again. The tests run in order and
 * share the stack; the last one removes everything the run started.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { TailEventMessage, TOPICS } from '@tailsync/contracts';
import { verifyWebhookRequest } from '@tailsync/webhooks';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { api, newServiceAccount, TestAccount } from '../../src/support/accounts';
import { eventually, sleep } from '../../src/support/eventually';
import { collect } from '../../src/support/kafka';
import { ComposeProject, docker } from './support/compose-project';

const EVT = 'Product.RiskAssessmentExecuted';
const APPS = ['tail-sync', 'webhook-dispatcher', 'gateway'] as const;
const stack = new ComposeProject();

// The e2e helpers (accounts, kafka) read these: point them at what compose publishes.
process.env.E2E_BASE_URL = stack.gatewayUrl;
process.env.KAFKA_BROKERS = stack.kafkaBrokers;
process.env.ADMIN_TOKEN = stack.settings.ADMIN_TOKEN;

interface Received {
  path: string;
  headers: Record<string, string>;
  bodyBase64: string;
}

async function received(): Promise<(Received & { body: Buffer })[]> {
  const res = await fetch(`${stack.receiverUrl}/received`);
  return ((await res.json()) as Received[]).map((r) => ({ ...r, body: Buffer.from(r.bodyBase64, 'base64') }));
}

let account: TestAccount;
const sharedSecret = randomBytes(32).toString('hex');
let producer: Producer;

async function publish(domain: string): Promise<string> {
  const eventId = randomUUID();
  const event = { eventId, domain, occurredAt: new Date().toISOString(), data: { score: 3 } };
  await producer.send({ topic: TOPICS.riskAssessmentExecuted, acks: -1, messages: [{ key: domain, value: JSON.stringify(event) }] });
  return eventId;
}

beforeAll(() => {
  stack.run(['down', '--volumes', '--remove-orphans']); // a run killed before its clean-up
  const t0 = Date.now();
  stack.must(['build']); // the apps' images from this checkout (cached layers when unchanged)
  console.log(`compose build: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}, 900_000);

afterAll(async () => {
  await producer?.disconnect().catch(() => undefined);
  if (process.env.TAILSYNC_COMPOSE_KEEP !== '1') stack.must(['down', '--volumes', '--remove-orphans']);
});

describe('the operators’ compose stack', () => {
  it('stops `up` before starting anything when a secret is missing from .env, naming it', () => {
    const { JWT_SECRET: _left, ...withoutJwt } = stack.settings;
    const result = stack.run(['up', '-d'], stack.writeEnvFile('missing-secret.env', withoutJwt));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('JWT_SECRET');
    expect(stack.run(['ps', '-aq']).stdout.trim()).toBe('');
  });

  it('brings every service to healthy with `up --wait`, each with a restart policy', () => {
    const t0 = Date.now();
    stack.must(['up', '-d', '--wait', '--wait-timeout', '300']);
    console.log(`compose up --wait: healthy in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    for (const service of ['kafka', 'postgres', ...APPS]) {
      expect({ service, ...stack.state(service) }).toMatchObject({ service, status: 'running', health: 'healthy' });
    }
    const policies = JSON.parse(stack.must(['config', '--format', 'json'])).services as Record<string, { restart?: string }>;
    for (const app of APPS) expect({ app, restart: policies[app].restart }).toEqual({ app, restart: 'unless-stopped' });
  });

  it('serves the README’s operator flow: a service account, a token, a tail written and read', async () => {
    account = await newServiceAccount();
    const put = await api(account, 'PUT', '/Tails', { tailId: 'efb-1', tailNumber: 'N123AB' });
    expect(put).toMatchObject({ status: 201, body: { wasCreated: true } });
    const read = await api(account, 'GET', '/Tails/efb-1');
    expect(read).toMatchObject({ status: 200, body: { tailNumber: 'N123AB' } });
    expect((await api(null, 'GET', '/openapi.json')).status).toBe(200);
  });

  it('delivers Product.RiskAssessmentExecuted to a receiver on the compose network, signed', async () => {
    const sub = await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: 'http://receiver:8080/hooks', sharedSecret });
    expect(sub.status).toBe(200);
    producer = new Kafka({ clientId: 'compose-test', brokers: [stack.kafkaBrokers], logLevel: logLevel.NOTHING }).producer({
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    const eventIds: string[] = [];
    for (let i = 0; i < 5; i++) eventIds.push(await publish(account.domain));

    const calls = await eventually(async () => {
      const all = (await received()).filter((r) => r.path === '/hooks');
      return eventIds.every((id) => all.some((r) => JSON.parse(r.body.toString()).eventId === id)) && all;
    }, 60_000, 250);
    for (const call of calls) {
      const verdict = verifyWebhookRequest({ authorizationHeader: call.headers.authorization, rawBody: call.body, secret: sharedSecret });
      expect(verdict).toMatchObject({ ok: true, claims: { sub: account.domain, evt: EVT } });
    }
  });

  it('brings tail-sync, the dispatcher and the gateway back by themselves after SIGKILL under load, losing nothing accepted', async () => {
    const acceptedTails: string[] = [];
    const publishedEvents: string[] = [];
    let loading = true;
    const writes = (async () => {
      for (let i = 0; loading; i++) {
        const tailId = `load-${i}`;
        const res = await api(account, 'PUT', '/Tails', { tailId, tailNumber: `N${10_000 + i}` }).catch(() => undefined);
        if (res && (res.status === 200 || res.status === 201)) acceptedTails.push(tailId);
        await sleep(40);
      }
    })();
    const events = (async () => {
      while (loading) {
        const eventId = await publish(account.domain).catch(() => undefined);
        if (eventId) publishedEvents.push(eventId);
        await sleep(80);
      }
    })();

    await sleep(3_000);
    for (const app of APPS) {
      const before = stack.state(app);
      stack.crash(app);
      const after = await eventually(async () => {
        const now = stack.state(app);
        return now.restartCount > before.restartCount && now.pid !== before.pid && now.health === 'healthy' && now;
      }, 120_000, 500);
      console.log(`${app}: SIGKILLed pid ${before.pid}; restarted by Docker (restarts ${after.restartCount}) and healthy again`);
      await sleep(3_000); // load goes on between crashes
    }
    loading = false;
    await Promise.all([writes, events]);
    console.log(`under load: ${acceptedTails.length} tails accepted, ${publishedEvents.length} events published`);
    expect(acceptedTails.length).toBeGreaterThan(50);
    expect(publishedEvents.length).toBeGreaterThan(50);

    // Every accepted tail is readable ...
    for (const tailId of acceptedTails) {
      expect({ tailId, status: (await api(account, 'GET', `/Tails/${tailId}`)).status }).toEqual({ tailId, status: 200 });
    }
    // ... and on tailsync.tail-events ...
    const onTopic = new Set<string>();
    await collect<TailEventMessage>(
      TOPICS.tailEvents,
      (messages) => {
        for (const m of messages) for (const id of m.value.mappedIds) onTopic.add(id);
        return acceptedTails.every((id) => onTopic.has(id));
      },
      60_000,
      (m) => m.value.domain === account.domain,
    );
    expect(acceptedTails.filter((id) => !onTopic.has(id))).toEqual([]);
    // ... and every published event is delivered to the receiver.
    const undelivered = async () => {
      const ids = new Set((await received()).map((r) => JSON.parse(r.body.toString()).eventId as string));
      return publishedEvents.filter((id) => !ids.has(id));
    };
    await eventually(async () => (await undelivered()).length === 0, 180_000, 1_000).catch(() => undefined);
    expect(await undelivered()).toEqual([]);
  });

  it('scales tail-sync (--scale) behind one gRPC name, and the gateway moves to the survivor when a copy is killed', async () => {
    stack.must(['up', '-d', '--wait', '--wait-timeout', '300', '--scale', 'tail-sync=2']);
    const copies = stack.must(['ps', '-q', 'tail-sync']).trim().split('\n');
    expect(copies).toHaveLength(2);
    const outcomes: { tailId: string; status: number; at: number }[] = [];
    let killedAt = Number.POSITIVE_INFINITY;
    const started = Date.now();
    const writes = (async () => {
      for (let i = 0; Date.now() - started < 15_000; i++) {
        const tailId = `scaled-${i}`;
        const res = await api(account, 'PUT', '/Tails', { tailId, tailNumber: `S${20_000 + i}` }).catch(() => undefined);
        outcomes.push({ tailId, status: res?.status ?? 0, at: Date.now() });
        await sleep(20);
      }
    })();
    await sleep(4_000);
    for (const id of copies.slice(0, 1)) docker(['kill', '--signal', 'KILL', id]);
    killedAt = Date.now();
    await writes;
    try {
      // A call in flight on the killed copy may answer 503 (it may have run: never retried); every other one lands.
      expect([...new Set(outcomes.map((o) => o.status))].filter((s) => s !== 201 && s !== 503)).toEqual([]);
      const after = outcomes.filter((o) => o.at > killedAt + 2_000);
      expect(after.length).toBeGreaterThan(5);
      expect(after.filter((o) => o.status === 201).length).toBe(after.length);
      for (const o of outcomes.filter((x) => x.status === 201)) {
        expect({ tailId: o.tailId, status: (await api(account, 'GET', `/Tails/${o.tailId}`)).status }).toEqual({ tailId: o.tailId, status: 200 });
      }
      console.log(`--scale tail-sync=2: ${outcomes.length} PUTs, ${outcomes.filter((o) => o.status === 503).length} answered 503 around the kill`);
    } finally {
      stack.must(['up', '-d', '--wait', '--wait-timeout', '300', '--scale', 'tail-sync=1']);
    }
  });

  it('keeps its data across `down` and `up` (volumes)', async () => {
    stack.must(['down']);
    expect(stack.run(['ps', '-aq']).stdout.trim()).toBe('');
    stack.must(['up', '-d', '--wait', '--wait-timeout', '300']);
    // A client's pooled connection to the old gateway is gone: the first call may find it closed.
    await eventually(async () => (await fetch(`${stack.gatewayUrl}/health/ready`).catch(() => undefined))?.ok, 30_000, 500);
    // The same account (PostgreSQL), its tail (event store and read model), its subscription.
    const token = await fetch(`${stack.gatewayUrl}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret }),
    });
    expect(token.status).toBe(200);
    expect(await api(account, 'GET', '/Tails/efb-1')).toMatchObject({ status: 200, body: { tailNumber: 'N123AB' } });
    expect(await api(account, 'GET', '/WebhookSubscriptions')).toMatchObject({ status: 200, body: { url: 'http://receiver:8080/hooks' } });
    // Kafka's log too: the first tail's creation is still on the topic.
    const isFirstTail = (m: { value: TailEventMessage }) => m.value.type === 'TailCreated' && m.value.mappedIds.includes('efb-1');
    const found = await collect<TailEventMessage>(TOPICS.tailEvents, (ms) => ms.some(isFirstTail), 30_000, (m) => m.value.domain === account.domain);
    expect(found.filter(isFirstTail)).toHaveLength(1);
  });
});
