/**
 * Upgrade and roll back, on a real Docker engine: a stack of the previous release (its own
 * checkout, compose file and images) is filled through the API, then upgraded in place to this
 * checkout's images on the same volumes, and every tail, mapping, subscription and delivery is
 * still there and the stack goes on working; then rolled back the way CHANGELOG.md says, and the
 * data, including what the new release wrote, is still there.
 */
import './support/retry-closed-connections';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RISK_ASSESSMENT_EXECUTED_TOPIC } from '@tailsync/contracts';
import { kafkaConnection } from '@tailsync/service-kit';
import { verifyWebhookRequest } from '@tailsync/webhooks';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { api, newServiceAccount, TestAccount } from '../../src/support/accounts';
import { eventually } from '../../src/support/eventually';
import { ComposeProject, REPO_ROOT } from './support/compose-project';
import { expectEachAppItsOwnRole } from './support/database-roles-probe';
import { expectExternalRefusals } from './support/external-kafka-refusals';
import { checkOutPreviousRelease, previousReleaseRef, removePreviousRelease, secretSettingsOf } from './support/previous-release';

const EVT = 'Product.RiskAssessmentExecuted';
const NAME = 'tailsync-upgrade-test'; // one project name: the upgrade reuses its volumes
// Ports of its own, the same before and after: the compose test runs two files at a time.
const PORTS = { GATEWAY_PORT: '23300', KAFKA_EXTERNAL_PORT: '29394', RECEIVER_PORT: '28380' };
const ref = previousReleaseRef();
const previousCheckout = checkOutPreviousRelease(ref);
const release = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const previous = new ComposeProject({
  name: NAME,
  settingsDir: `${NAME}-previous`,
  checkout: previousCheckout,
  secretSettings: secretSettingsOf(previousCheckout),
  // The previous release's own base image (compose-test.ts builds its stand-in), and its own image names.
  settings: { ...PORTS, TAILSYNC_IMAGE_PREFIX: 'tailsync-upgrade-previous', TAILSYNC_VERSION: 'previous', ...(process.env.PREVIOUS_NODE_IMAGE ? { NODE_IMAGE: process.env.PREVIOUS_NODE_IMAGE } : {}) },
});
const current = new ComposeProject({
  name: NAME,
  secrets: previous.secrets, // an upgrade keeps the operator's secrets
  settings: { ...PORTS, TAILSYNC_IMAGE_PREFIX: 'tailsync-compose-test', TAILSYNC_VERSION: release },
});

process.env.E2E_BASE_URL = current.gatewayUrl; // the same published port before and after
process.env.KAFKA_BROKERS = current.kafkaBrokers;
process.env.ADMIN_TOKEN = current.secrets.admin_token;

interface Filled {
  accounts: TestAccount[];
  tails: Record<string, unknown>; // `${clientId}/${mappedId}` → GET /Tails/{id}
  subscriptions: Record<string, unknown>; // clientId → GET /WebhookSubscriptions (its domain's)
  deliveries: Record<string, unknown[]>; // clientId → GET /WebhookSubscriptions/Deliveries items
}

type ReadBack = Omit<Filled, 'accounts'>;

let producer: Producer;
const sharedSecret = randomBytes(32).toString('hex');

async function publish(domain: string): Promise<string> {
  const eventId = randomUUID();
  const event = { eventId, domain, occurredAt: new Date().toISOString(), data: { score: 5 } };
  await producer.send({ topic: RISK_ASSESSMENT_EXECUTED_TOPIC.topic, acks: -1, messages: [{ key: domain, value: JSON.stringify(event) }] });
  return eventId;
}

/** A producer as the product runs it: without credentials on the previous release, as `product` (SASL/SCRAM) after the upgrade. */
async function connectProducer(settings: Record<string, string>): Promise<void> {
  await producer?.disconnect().catch(() => undefined);
  producer = new Kafka({ ...kafkaConnection(settings), clientId: 'upgrade-test', logLevel: logLevel.NOTHING }).producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
}

async function deliveredLog(account: TestAccount, eventIds: string[]): Promise<unknown[]> {
  return eventually(async () => {
    const { body } = await api(account, 'GET', '/WebhookSubscriptions/Deliveries?limit=100');
    const items = (body.items ?? []) as { eventId: string; status: string }[];
    return eventIds.every((id) => items.some((d) => d.eventId === id && d.status === 'delivered')) && items;
  }, 90_000, 500);
}

/** Everything an integrator can read back of what the accounts wrote. */
async function readBack(accounts: TestAccount[], tailIds: Record<string, string[]>): Promise<ReadBack> {
  const tails: Filled['tails'] = {};
  const subscriptions: Filled['subscriptions'] = {};
  const deliveries: Filled['deliveries'] = {};
  for (const account of accounts) {
    for (const id of tailIds[account.clientId]) {
      const res = await api(account, 'GET', `/Tails/${id}`);
      tails[`${account.clientId}/${id}`] = { status: res.status, body: res.body };
    }
    subscriptions[account.clientId] = (await api(account, 'GET', '/WebhookSubscriptions')).body;
    deliveries[account.clientId] = (await api(account, 'GET', '/WebhookSubscriptions/Deliveries?limit=100')).body.items;
  }
  return { tails, subscriptions, deliveries };
}

const fieldsOf = (records: unknown[]): Set<string> => new Set(records.flatMap((r) => Object.keys(r as object)));
const pick = (record: unknown, fields: Set<string>) => Object.fromEntries(Object.entries(record as object).filter(([k]) => fields.has(k)));
const mapValues = <T, U>(map: Record<string, T>, f: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(map).map(([k, v]) => [k, f(v)]));

/**
 * A read-back with only the fields the previous release showed (`shown`): a release may add
 * fields to a record (issue 38 added a subscription's `signatureScheme`, `maxPerSecond`,
 * `maxInFlight` and `ordering`, a delivery's `backfillId`), and the previous release cannot show
 * those, but it may not change or lose one.
 */
function asThePreviousReleaseShows(read: ReadBack, shown: ReadBack): ReadBack {
  const tailFields = fieldsOf(Object.values(shown.tails).map((t) => (t as { body: unknown }).body));
  const subscriptionFields = fieldsOf(Object.values(shown.subscriptions));
  const deliveryFields = fieldsOf(Object.values(shown.deliveries).flat());
  return {
    tails: mapValues(read.tails, (t) => ({ ...(t as object), body: pick((t as { body: unknown }).body, tailFields) })),
    subscriptions: mapValues(read.subscriptions, (s) => pick(s, subscriptionFields)),
    deliveries: mapValues(read.deliveries, (items) => items.map((d) => pick(d, deliveryFields))),
  };
}

async function tokenStatus(account: TestAccount): Promise<number> {
  const res = await fetch(`${current.gatewayUrl}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret }),
  });
  return res.status;
}

/** Fresh tokens for accounts made before a restart (their tokens stay valid, but this is what a client does after an hour). */
async function withFreshTokens(accounts: TestAccount[]): Promise<TestAccount[]> {
  return Promise.all(
    accounts.map(async (a) => {
      const res = await fetch(`${current.gatewayUrl}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: a.clientId, client_secret: a.clientSecret }),
      });
      return { ...a, token: ((await res.json()) as { access_token: string }).access_token };
    }),
  );
}

// A stack takes minutes to come up on a busy 2-core machine; each step here brings one up.
const STEP_TIMEOUT_MS = 1_200_000;

async function upAndHealthy(stack: ComposeProject, label: string): Promise<void> {
  const t0 = Date.now();
  stack.upAndWait(600);
  await eventually(async () => (await fetch(`${stack.gatewayUrl}/health/ready`).catch(() => undefined))?.ok, 60_000, 500);
  console.log(`${label}: healthy in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

let accounts: TestAccount[] = []; // two sources per domain
const primaries: TestAccount[] = []; // the first of each domain: its subscription and events
const tailIds: Record<string, string[]> = {};
let before: ReadBack;

beforeAll(() => {
  previous.run(['down', '--volumes', '--remove-orphans']); // a run killed before its clean-up
  const t0 = Date.now();
  previous.must(['build'], 1_200_000);
  current.must(['build'], 1_200_000); // cached when another compose test built them
  console.log(`previous release ${ref} and this checkout built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}, 2_400_000);

afterAll(async () => {
  await producer?.disconnect().catch(() => undefined);
  if (process.env.TAILSYNC_COMPOSE_KEEP !== '1') {
    current.run(['down', '--volumes', '--remove-orphans']);
    removePreviousRelease(previousCheckout);
  }
});

describe(`an upgrade from the previous release (${ref}) to this checkout, and back`, () => {
  it('fills a stack of the previous release: tails, a mapping, a deactivation, subscriptions and deliveries', async () => {
    await upAndHealthy(previous, `previous release (${ref})`);
    await connectProducer({ KAFKA_BROKERS: current.kafkaBrokers }); // PLAINTEXT before this release
    for (const prefix of ['up-a', 'up-b']) {
      const account = await newServiceAccount(`${prefix}-${randomBytes(4).toString('hex')}`);
      const second = await newServiceAccount(account.domain, 'second source');
      primaries.push(account);
      accounts.push(account, second);
      expect((await api(account, 'PUT', '/Tails', { tailId: 'efb-1', tailNumber: 'N100UP' })).status).toBe(201);
      expect((await api(account, 'PUT', '/Tails', { tailId: 'efb-2', tailNumber: 'N200UP' })).status).toBe(201);
      // A second source's id for the same aircraft: a mapping onto efb-1's tail.
      expect((await api(second, 'PUT', '/Tails', { tailId: 'other-1', tailNumber: 'N100UP' })).body).toMatchObject({ wasCreated: false, newSourceMappingAdded: true });
      expect((await api(account, 'POST', '/Tails/Deactivate', { tailId: 'efb-2' })).status).toBe(200);
      tailIds[account.clientId] = ['efb-1', 'efb-2'];
      tailIds[second.clientId] = ['other-1'];
      const url = `http://receiver:8080/upgrade/${account.domain}`;
      expect((await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url, sharedSecret })).status).toBe(200);
    }
    for (const account of primaries) {
      const eventIds = [await publish(account.domain), await publish(account.domain)];
      await deliveredLog(account, eventIds);
    }
    before = await readBack(accounts, tailIds);
    expect(Object.values(before.tails).every((t) => (t as { status: number }).status === 200)).toBe(true);
    for (const account of accounts) expect(before.deliveries[account.clientId]).toHaveLength(2);
  }, STEP_TIMEOUT_MS);

  it('upgrades in place to this checkout\'s images and finds every tail, mapping, subscription and delivery intact, each app on its own database role', async () => {
    previous.must(['down']); // volumes kept
    await upAndHealthy(current, `upgraded to ${release}`);
    for (const account of accounts) expect({ domain: account.domain, token: await tokenStatus(account) }).toEqual({ domain: account.domain, token: 200 });
    accounts = await withFreshTokens(accounts);
    expect(asThePreviousReleaseShows(await readBack(accounts, tailIds), before)).toEqual(before);
    const version = (await (await fetch(`${current.gatewayUrl}/Version`)).json()) as { build: { release: string } };
    expect(version.build.release).toBe(release);
    // Every table belonged to the one superuser `tailsync`: postgres-roles handed each app's to the app's own role.
    expect(current.must(['logs', '--no-log-prefix', 'postgres-roles'])).toContain('gw_service_accounts → tailsync_gateway');
    expectEachAppItsOwnRole(current);
  }, STEP_TIMEOUT_MS);

  it('goes on working after the upgrade: new writes, new deliveries, no old delivery sent again', async () => {
    // Kafka now has SASL and ACLs on the volume the previous release formatted (compose/kafka-start.sh).
    await connectProducer(current.externalKafka('product'));
    const first = accounts.find((a) => a.clientId === primaries[0].clientId) as TestAccount; // with its fresh token
    expect((await api(first, 'PUT', '/Tails', { tailId: 'efb-3', tailNumber: 'N300UP' })).status).toBe(201);
    tailIds[first.clientId].push('efb-3');
    const eventId = await publish(first.domain);
    const log = (await deliveredLog(first, [eventId])) as { eventId: string; attempts: unknown[] }[];
    expect(log).toHaveLength(3);
    // The deliveries made before the upgrade: the same attempts as before, none added.
    const earlier = { tails: {}, subscriptions: {}, deliveries: { [first.clientId]: log.filter((d) => d.eventId !== eventId) } };
    expect(asThePreviousReleaseShows(earlier, before).deliveries[first.clientId]).toEqual(before.deliveries[first.clientId]);

    // The shared secrets the previous release sealed (no key id, the gateway's key then) still sign:
    // the new callback, and a Test call of every domain, verify with them.
    const calls = (await (await fetch(`${current.receiverUrl}/received`)).json()) as { path: string; headers: Record<string, string>; bodyBase64: string }[];
    const signedWith = (call: (typeof calls)[number]) =>
      verifyWebhookRequest({ authorizationHeader: call.headers.authorization, rawBody: Buffer.from(call.bodyBase64, 'base64'), secret: sharedSecret, testCalls: 'accept' }).ok;
    const callback = calls.find((c) => c.headers['webhook-id'] === eventId);
    expect(callback && signedWith(callback)).toBe(true);
    for (const account of primaries) {
      const fresh = accounts.find((a) => a.clientId === account.clientId) as TestAccount;
      expect((await api(fresh, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { upgraded: true } })).body.success).toBe(true);
    }
    const tests = ((await (await fetch(`${current.receiverUrl}/received`)).json()) as typeof calls).filter((c) => c.headers['webhook-id']?.startsWith('test_'));
    expect(tests.map((c) => ({ path: c.path, signed: signedWith(c) }))).toEqual(primaries.map((p) => ({ path: `/upgrade/${p.domain}`, signed: true })));
  }, STEP_TIMEOUT_MS);

  it('refuses on its default EXTERNAL listener (SASL without TLS) what the contract refuses', async () => {
    await expectExternalRefusals(current);
  }, STEP_TIMEOUT_MS);

  it('rolls back to the previous release as CHANGELOG.md says, keeping what either release wrote', async () => {
    const afterUpgrade = asThePreviousReleaseShows(await readBack(accounts, tailIds), before);
    current.must(['down']);
    await upAndHealthy(previous, `rolled back to ${ref}`);
    accounts = await withFreshTokens(accounts);
    expect(await readBack(accounts, tailIds)).toEqual(afterUpgrade);
    previous.must(['down']);
  }, STEP_TIMEOUT_MS);
});
