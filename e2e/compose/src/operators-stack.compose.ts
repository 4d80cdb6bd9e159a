/**
 * The operators' door, on a real Docker engine: docker-compose.yml brought up with `up --wait`,
 * used only through what it publishes (the gateway's port, Kafka's EXTERNAL listener, the test
 * receiver's port), crashed under load, and taken down and up again. The tests run in order and
 * share the stack; the last one removes everything the run started.
 */
import './support/retry-closed-connections';
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RISK_ASSESSMENT_EXECUTED_TOPIC, TailEventMessage, TOPICS } from '@tailsync/contracts';
import { verifyWebhookRequest } from '@tailsync/webhooks';
import { Partitioners, Producer } from 'kafkajs';
import { testCertificateAuthority } from '@tailsync/tools/testing';
import { api, newServiceAccount, TestAccount } from '../../src/support/accounts';
import { eventually, sleep } from '../../src/support/eventually';
import { collect, tailIdsOnTopic } from '../../src/support/kafka';
import { ComposeProject, docker, REPO_ROOT, secretFiles } from './support/compose-project';
import { attempt, expectExternalRefusals, externalClient, listTopics } from './support/external-kafka-refusals';
import { createNamedReader, runAsyncApiConsumer } from './support/asyncapi-consumer';
import { expectEachAppItsOwnRole } from './support/database-roles-probe';
import { mountedCertificateDigest, pingAs, SERVICES as GRPC_SERVICES, serviceNetworkCredentials } from './support/service-network-probes';

const EVT = 'Product.RiskAssessmentExecuted';
const APPS = ['tail-sync', 'webhook-dispatcher', 'gateway'] as const;
const SERVICES = ['kafka', 'postgres', ...APPS] as const;

// The operator's certificate on Kafka's EXTERNAL listener (docker-compose.kafka-tls.yml): one a CA
// made for this run signs, for 127.0.0.1 and localhost, readable by the Kafka image's user.
const tlsDir = join(REPO_ROOT, '.data', 'compose', 'kafka-tls');
const ca = testCertificateAuthority(join(tlsDir, 'ca'));
mkdirSync(join(tlsDir, 'broker'), { recursive: true });
copyFileSync(ca.keystoreFile, join(tlsDir, 'broker', 'keystore.pem'));
chmodSync(join(tlsDir, 'broker'), 0o755);
chmodSync(join(tlsDir, 'broker', 'keystore.pem'), 0o644);
// The images are built as the release this checkout is, from this commit, labelled so.
const release = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const revision = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
const stack = new ComposeProject({
  settings: {
    // Names of its own: the other files, which may build beside it, label their images without the commit.
    TAILSYNC_IMAGE_PREFIX: 'tailsync-compose-release',
    TAILSYNC_VERSION: release,
    TAILSYNC_REVISION: revision,
    TAILSYNC_CREATED: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    // Requests reach the gateway through Docker's port publishing, from the compose network's
    // gateway address (a private range): that is the proxy this stack trusts.
    TRUST_PROXY: 'uniquelocal',
    KAFKA_TLS_DIR: join(tlsDir, 'broker'),
  },
});

// The e2e helpers (accounts, kafka) read these: point them at what compose publishes.
process.env.E2E_BASE_URL = stack.gatewayUrl;
process.env.ADMIN_TOKEN = stack.secrets.admin_token;
// They read tailsync.tail-events as an internal service does: reader, in reader-* groups, over TLS.
Object.assign(process.env, stack.externalKafka('reader', ca.caFile), { E2E_KAFKA_GROUP_PREFIX: 'reader-compose-' });
interface Received {
  path: string;
  headers: Record<string, string>;
  bodyBase64: string;
  answeredAt?: number;
}

async function received(): Promise<(Received & { body: Buffer })[]> {
  const res = await fetch(`${stack.receiverUrl}/received`);
  return ((await res.json()) as Received[]).map((r) => ({ ...r, body: Buffer.from(r.bodyBase64, 'base64') }));
}

/** The secrets directory of this stack with one file left out. */
function secretFilesWithout(name: keyof typeof stack.secrets, dir: string): Record<string, string> {
  const settings = secretFiles(stack.secrets, dir);
  rmSync(join(settings.TAILSYNC_SECRETS_DIR, name));
  return settings;
}

let account: TestAccount;
let certificatesBeforeRestart: Record<string, string>;
const sharedSecret = randomBytes(32).toString('hex');
let producer: Producer;

async function publish(domain: string): Promise<string> {
  const eventId = randomUUID();
  const event = { eventId, domain, occurredAt: new Date().toISOString(), data: { score: 3 } };
  await producer.send({ topic: RISK_ASSESSMENT_EXECUTED_TOPIC.topic, acks: -1, messages: [{ key: domain, value: JSON.stringify(event) }] });
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
  it('stops `up` before starting anything when a secret file is missing, naming it', () => {
    const incomplete = join(REPO_ROOT, '.data', 'compose', 'missing-secret');
    const settings = { ...stack.settings, ...secretFilesWithout('jwt_secret', incomplete) };
    const result = stack.run(['up', '-d'], stack.writeEnvFile('missing-secret.env', settings));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('jwt_secret');
    expect(stack.run(['ps', '-q']).stdout.trim()).toBe(''); // created at most, never started
    stack.must(['down', '--remove-orphans']);
  });

  it('brings every service to healthy with `up --wait`, each with a restart policy', () => {
    const t0 = Date.now();
    stack.upAndWait();
    console.log(`compose up --wait: healthy in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    for (const service of ['kafka', 'postgres', ...APPS]) {
      expect({ service, ...stack.state(service) }).toMatchObject({ service, status: 'running', health: 'healthy' });
    }
    const policies = JSON.parse(stack.must(['config', '--format', 'json'])).services as Record<string, { restart?: string }>;
    for (const app of APPS) expect({ app, restart: policies[app].restart }).toEqual({ app, restart: 'unless-stopped' });
  });

  it('runs the gRPC channels over mutual TLS: a service answers the gateway\'s certificate, and refuses plaintext, another CA and any other client', async () => {
    expect(stack.state('grpc-certs')).toMatchObject({ status: 'exited', exitCode: 0 });
    const tried = await serviceNetworkCredentials(stack);
    const key = stack.secrets.service_signing_key;
    for (const service of GRPC_SERVICES) {
      const address = `${stack.address(service)}:50051`;
      const other = GRPC_SERVICES.find((s) => s !== service) as (typeof GRPC_SERVICES)[number];
      expect({
        service,
        gateway: await pingAs(service, address, tried.gateway, key),
        plaintext: await pingAs(service, address, tried.plaintext, key),
        otherCa: await pingAs(service, address, tried.otherCa, key),
        notTheGateway: await pingAs(service, address, tried.notTheGateway, key),
        anotherService: await pingAs(service, address, tried.ownOf[other], key),
      }).toEqual({ service, gateway: 'answered', plaintext: 'UNAVAILABLE', otherCa: 'UNAVAILABLE', notTheGateway: 'UNAUTHENTICATED', anotherService: 'UNAVAILABLE' });
    }
    // Each app holds its own certificate and private key, and no other's: the CA's key is in none.
    for (const app of APPS) {
      const files = stack.must(['exec', '-T', app, 'ls', '/etc/tailsync/grpc-tls']).trim().split('\n').sort();
      const subject = stack.must(['exec', '-T', app, 'node', '-e', "process.stdout.write(new (require('node:crypto').X509Certificate)(require('node:fs').readFileSync('/etc/tailsync/grpc-tls/tls.crt')).subject)"]);
      expect({ app, files, subject }).toEqual({ app, files: ['ca.crt', 'tls.crt', 'tls.key'], subject: `CN=${app}` });
      expect(stack.inspect(app).Config.Env).toEqual(expect.arrayContaining(['GRPC_TLS_CERT_FILE=/etc/tailsync/grpc-tls/tls.crt', 'GRPC_TLS_KEY_FILE=/etc/tailsync/grpc-tls/tls.key']));
    }
    certificatesBeforeRestart = Object.fromEntries(APPS.map((app) => [app, mountedCertificateDigest(stack, app)]));
  });

  it('runs every container without capabilities or privilege escalation, within a memory limit', () => {
    for (const service of SERVICES) {
      const { HostConfig } = stack.inspect(service);
      expect({ service, capDrop: HostConfig.CapDrop, noNewPrivileges: HostConfig.SecurityOpt?.includes('no-new-privileges:true') }).toEqual({
        service, capDrop: ['ALL'], noNewPrivileges: true,
      });
      expect({ service, limited: HostConfig.Memory > 0 }).toEqual({ service, limited: true });
    }
    expect(stack.inspect('gateway').HostConfig.Memory).toBe(768 * 1024 * 1024);
    expect(stack.inspect('kafka').HostConfig.Memory).toBe(1536 * 1024 * 1024);
  });

  it('gives the apps and PostgreSQL a read-only root: a write there fails, /tmp takes it', () => {
    for (const [service, user] of [...APPS.map((app) => [app, 'node'] as const), ['postgres', 'postgres'] as const]) {
      expect({ service, readOnly: stack.inspect(service).HostConfig.ReadonlyRootfs }).toEqual({ service, readOnly: true });
      // As root too: without capabilities and on a read-only mount, root cannot write either.
      for (const asUser of [user, 'root']) {
        const write = stack.run(['exec', '-T', '--user', asUser, service, 'sh', '-c', 'echo x > /write-test']);
        expect({ service, asUser, status: write.status, error: write.stderr.trim() }).toEqual({ service, asUser, status: 2, error: expect.stringContaining('Read-only file system') });
      }
      expect(stack.run(['exec', '-T', service, 'sh', '-c', 'echo x > /tmp/write-test && cat /tmp/write-test']).stdout).toBe('x\n');
    }
  });

  it('keeps the secrets out of every container\'s environment', () => {
    for (const service of SERVICES) {
      const env = stack.inspect(service).Config.Env.join('\n');
      for (const [name, value] of Object.entries(stack.secrets)) expect({ service, name, leaked: env.includes(value) }).toEqual({ service, name, leaked: false });
    }
  });

  it('labels the images with the release and reports it on GET /Version, running Node.js 24', async () => {
    for (const app of APPS) {
      const labels = JSON.parse(docker(['image', 'inspect', '--format', '{{json .Config.Labels}}', stack.inspect(app).Image])) as Record<string, string>;
      expect(labels).toMatchObject({
        'org.opencontainers.image.version': release,
        'org.opencontainers.image.revision': revision,
        'org.opencontainers.image.created': stack.settings.TAILSYNC_CREATED,
        'org.opencontainers.image.licenses': 'Apache-2.0',
        'org.opencontainers.image.title': `tailsync-${app}`,
      });
    }
    const res = await fetch(`${stack.gatewayUrl}/Version`);
    expect(await res.json()).toEqual({
      version: '15.4.9707.25929',
      build: { release, revision, created: stack.settings.TAILSYNC_CREATED, node: expect.stringMatching(/^v24\./) },
    });
    // /metrics is on the management port, which compose does not publish: read it inside the container.
    const metrics = stack.must(['exec', '-T', 'gateway', 'node', '-e', "fetch('http://localhost:9464/metrics').then((r) => r.text()).then((t) => process.stdout.write(t))"]);
    expect(metrics).toContain(`tailsync_build_info{release="${release}",revision="${revision}",node="`);
  });

  it('logs the client a trusted proxy names (TRUST_PROXY) as the request\'s remote address', async () => {
    const marker = `/Version?trace=${randomUUID()}`;
    await fetch(`${stack.gatewayUrl}${marker}`, { headers: { 'X-Forwarded-For': '198.51.100.7' } });
    const line = await eventually(async () => stack.must(['logs', '--no-log-prefix', 'gateway']).split('\n').find((l) => l.includes(marker)), 10_000, 250);
    expect(JSON.parse(line).req).toMatchObject({ url: marker, remoteAddress: '198.51.100.7' });
  });

  it('serves the README’s operator flow: a service account, a token, a tail written and read', async () => {
    account = await newServiceAccount();
    const put = await api(account, 'PUT', '/Tails', { tailId: 'efb-1', tailNumber: 'N123AB' });
    expect(put).toMatchObject({ status: 201, body: { wasCreated: true } });
    const read = await api(account, 'GET', '/Tails/efb-1');
    expect(read).toMatchObject({ status: 200, body: { tailNumber: 'N123AB' } });
    expect((await api(null, 'GET', '/openapi.json')).status).toBe(200);
  });

  it('lets a consumer written from the AsyncAPI document alone read a tail event, as a principal the operator made', async () => {
    // The operator, as docs/kafka-security.md says: an internal consumer's own principal, from the host, as the admin over TLS.
    const password = randomBytes(24).toString('hex');
    createNamedReader(stack.externalKafka('admin', ca.caFile), 'integrator', [TOPICS.tailEvents], password, tlsDir);
    const owner = await newServiceAccount();
    const tailId = `asyncapi-${randomUUID().slice(0, 8)}`;
    expect((await api(owner, 'PUT', '/Tails', { tailId, tailNumber: 'N-ASYNC' })).status).toBe(201);
    // The integrator: the served document, its compose server with the TLS override, the stack's published port, the operator's CA.
    const { code, report, output } = await runAsyncApiConsumer({
      asyncApiUrl: `${stack.gatewayUrl}/asyncapi.json`,
      server: 'compose-tls',
      variables: { port: stack.settings.KAFKA_EXTERNAL_PORT },
      channel: 'tailEvents',
      principal: 'integrator',
      password,
      caFile: ca.caFile,
      match: { domain: owner.domain, mappedIds: tailId },
      timeoutSeconds: 90,
    });
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    expect(report).toMatchObject({
      connection: { 'bootstrap.servers': `localhost:${stack.settings.KAFKA_EXTERNAL_PORT}`, 'security.protocol': 'SASL_SSL', 'sasl.mechanisms': 'SCRAM-SHA-512', 'sasl.username': 'integrator' },
      group: expect.stringMatching(/^integrator-/),
      topic: TOPICS.tailEvents,
      message: { value: { type: 'TailCreated', domain: owner.domain, mappedIds: [tailId] } },
    });
    expect(report!.message!.key).toBe(`${owner.domain}:${report!.message!.value.tailId}`);
  });

  it("connects each app as its own database role, no superuser, refused the other services' tables", () => {
    expect(stack.state('postgres-roles')).toMatchObject({ status: 'exited', exitCode: 0 });
    expectEachAppItsOwnRole(stack);
  });

  it('delivers Product.RiskAssessmentExecuted to a receiver on the compose network, signed', async () => {
    const sub = await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: 'http://receiver:8080/hooks', sharedSecret });
    expect(sub.status).toBe(200);
    // As the product that runs risk assessments does: its principal, over TLS.
    producer = externalClient(stack.externalKafka('product', ca.caFile)).producer({ createPartitioner: Partitioners.DefaultPartitioner });
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

  it('refuses on the EXTERNAL listener a client without credentials, a wrong password, plaintext, and a principal beyond its rights', async () => {
    await expectExternalRefusals(stack, ca.caFile);
    // TLS is required: the same credentials without it get nowhere.
    const { KAFKA_SSL: _ssl, KAFKA_SSL_CA_FILE: _caFile, ...plaintext } = stack.externalKafka('reader', ca.caFile);
    expect(await attempt(plaintext, listTopics)).toMatch(/^refused/);
    // kafka-init ran once and exited 0, and its log names no password.
    expect(stack.state('kafka-init')).toMatchObject({ status: 'exited', exitCode: 0 });
    const initLog = stack.must(['logs', '--no-log-prefix', 'kafka-init']);
    expect(initLog).toContain('ACLs:');
    for (const [name, value] of Object.entries(stack.secrets)) expect({ name, inLog: initLog.includes(value) }).toEqual({ name, inLog: false });
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
    const onTopic = await tailIdsOnTopic(account.domain, acceptedTails, 60_000);
    expect(acceptedTails.filter((id) => !onTopic.has(id))).toEqual([]);
    // ... and every published event is delivered to the receiver.
    const undelivered = async () => {
      const ids = new Set((await received()).map((r) => JSON.parse(r.body.toString()).eventId as string));
      return publishedEvents.filter((id) => !ids.has(id));
    };
    await eventually(async () => (await undelivered()).length === 0, 180_000, 1_000).catch(() => undefined);
    expect(await undelivered()).toEqual([]);
  });

  it('lets an attempt in flight finish when the dispatcher is stopped, and delivers it once', async () => {
    const slowAccount = await newServiceAccount();
    const slowMs = 8_000; // under the attempt time-out (10 s), near Docker's default stop grace
    const url = `http://receiver:8080/slow/${slowMs}/${slowAccount.domain}`;
    expect((await api(slowAccount, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url, sharedSecret })).status).toBe(200);
    const eventId = await publish(slowAccount.domain);
    const callsOf = async () => (await received()).filter((r) => r.path === new URL(url).pathname);
    await eventually(async () => (await callsOf()).length === 1, 60_000, 100);

    const t0 = Date.now();
    stack.must(['stop', 'webhook-dispatcher'], 120_000); // SIGTERM, then the stop grace
    const stopSeconds = (Date.now() - t0) / 1000;
    console.log(`dispatcher stopped in ${stopSeconds.toFixed(1)} s with an ${slowMs / 1000} s attempt in flight`);
    // Exited by itself (0), not killed at the end of the grace (137), after the receiver answered.
    expect(stack.state('webhook-dispatcher')).toMatchObject({ status: 'exited', exitCode: 0 });
    const [call] = await callsOf();
    expect(call.answeredAt).toBeDefined();

    stack.must(['up', '-d', '--wait', '--wait-timeout', '300', 'webhook-dispatcher']);
    const deliveries = await eventually(async () => {
      const log = await api(slowAccount, 'GET', '/WebhookSubscriptions/Deliveries');
      return log.body.items?.find((d: { eventId: string; status: string }) => d.eventId === eventId && d.status === 'delivered') && log.body.items;
    }, 30_000, 500);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].attempts).toHaveLength(1);
    await sleep(5_000); // a lost record would show up as a second attempt after the restart
    expect((await callsOf()).filter((c) => JSON.parse(c.body.toString()).eventId === eventId)).toHaveLength(1);
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
    stack.upAndWait();
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
    // The service network's certificates: grpc-certs ran again and kept every one.
    expect(Object.fromEntries(APPS.map((app) => [app, mountedCertificateDigest(stack, app)]))).toEqual(certificatesBeforeRestart);
    // Kafka's log too: the first tail's creation is still on the topic.
    const isFirstTail = (m: { value: TailEventMessage }) => m.value.type === 'TailCreated' && m.value.mappedIds.includes('efb-1');
    const found = await collect<TailEventMessage>(TOPICS.tailEvents, (ms) => ms.some(isFirstTail), 30_000, (m) => m.value.domain === account.domain);
    expect(found.filter(isFirstTail)).toHaveLength(1);
  });
});
