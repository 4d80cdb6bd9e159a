/**
 * A database endpoint that closes idle connections sooner than the apps' sessions sit idle: the
 * apps reach PostgreSQL only through HAProxy with `timeout client` and `timeout server` of 3 s, so
 * the dispatcher's LISTEN session and every leadership session (the relay's advisory lock) are cut
 * by the proxy whenever they carry nothing for 3 s, as a managed endpoint or a pooler with an
 * idle time-out does. Nothing may stall: after the stack sat idle, a new subscription is delivered
 * to, a domain the dispatcher had read as unsubscribed is delivered to once subscribed, and tail
 * events are relayed (leadership taken again).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RISK_ASSESSMENT_EXECUTED_TOPIC } from '@tailsync/contracts';
import { idempotentProducer } from '@tailsync/service-kit';
import { type DatabaseEndpoint, startDatabaseEndpoint } from '@tailsync/tools/testing';
import { verifyWebhookRequest } from '@tailsync/webhooks';
import { scripts, WebhookReceiver } from '@tailsync/webhooks/testing';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { expectHeldUp, type FaultStack, PROMTOOL_BUILT, runFault, startFaultStack } from './support';
import { databaseOfItsOwn, faultsDataDir } from './support/fault-stack';
import { apiCall, newAccount } from './support/steady-load';

/** The fault suite's ports (24000-24499): the endpoint. */
const ENDPOINT_PORT = 24450;
const IDLE_TIMEOUT_MS = 3_000;
const EVT = 'Product.RiskAssessmentExecuted';

let endpoint: DatabaseEndpoint;
let endpointLog: string;
let stack: FaultStack;
let producer: Producer;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.log(`[faults] ${line}`);

beforeAll(...PROMTOOL_BUILT);

beforeAll(async () => {
  const database = new URL(await databaseOfItsOwn('idle-endpoint'));
  const dir = join(faultsDataDir(), 'idle-endpoint-database', 'endpoint');
  endpoint = await startDatabaseEndpoint({ dir, port: ENDPOINT_PORT, targetPort: Number(database.port), idleTimeoutMs: IDLE_TIMEOUT_MS, log });
  endpointLog = join(dir, 'haproxy.log');
  database.port = String(ENDPOINT_PORT);
  stack = await startFaultStack({ name: 'idle-endpoint', databaseUrl: database.toString() });
  producer = idempotentProducer(new Kafka({ ...stack.kafka('product'), clientId: 'fault-suite-idle', logLevel: logLevel.NOTHING }));
  await producer.connect();
}, 300_000);

afterAll(async () => {
  await producer?.disconnect();
  await stack?.stop();
  await endpoint?.stop();
}, 120_000);

/** Connections HAProxy closed because they sat idle (its TCP log's termination state `cD` or `sD`). */
const idleClosures = () => readFileSync(endpointLog, 'utf8').split('\n').filter((line) => /\s[cs]D\s/.test(line)).length;

/** Sits idle past the endpoint's time-out, and checks the endpoint did cut idle sessions meanwhile. */
async function sitIdle(): Promise<void> {
  const before = idleClosures();
  await sleep(3 * IDLE_TIMEOUT_MS);
  expect(idleClosures()).toBeGreaterThan(before);
}

const publish = (domain: string, eventId: string) =>
  producer.send({
    topic: RISK_ASSESSMENT_EXECUTED_TOPIC.topic,
    acks: -1,
    messages: [{ key: domain, value: JSON.stringify({ eventId, domain, occurredAt: new Date().toISOString(), data: { score: 2 } }) }],
  });

it('sessions cut by the endpoint while the stack sat idle: the load after it is served, delivered and relayed in full', async () => {
  await sitIdle();
  const outcome = await runFault(stack, {
    name: `postgres endpoint: idle sessions cut after ${IDLE_TIMEOUT_MS / 1000} s`,
    // The endpoint is the fault: it goes on cutting every session that sits idle for 3 s.
    holdMs: 15_000,
    inject: async () => async () => undefined,
  });
  expectHeldUp(outcome);
});

it('a domain the dispatcher read as unsubscribed, subscribed after its LISTEN session was cut: its next event is delivered', async () => {
  const account = await newAccount(stack);
  const receiver = await WebhookReceiver.start(scripts.status(200));
  try {
    // Read (and kept) as "no subscription" by the dispatcher that consumes it.
    await publish(account.domain, randomUUID());
    await sleep(5_000);
    await sitIdle();
    const secret = randomBytes(48).toString('hex');
    const subscribed = await apiCall(`${stack.gatewayUrls[1]}/WebhookSubscriptions/`, 'POST', account.token, { eventNames: [EVT], url: receiver.url, sharedSecret: secret });
    expect(subscribed.status).toBe(200);
    await sitIdle();
    const eventId = randomUUID();
    await publish(account.domain, eventId);
    const delivered = await receiver.waitForRequest((r) => r.headers['webhook-id'] === eventId, 30_000);
    expect(verifyWebhookRequest({ authorizationHeader: delivered.headers.authorization, rawBody: delivered.rawBody, secret }).ok).toBe(true);
  } finally {
    await receiver.close();
  }
});
