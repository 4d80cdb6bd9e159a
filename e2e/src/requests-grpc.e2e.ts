/**
 * Requests between the gateway and the services travel over gRPC (contract: "Requests between
 * services"). Checked from outside the gateway: a raw gRPC client built from the `.proto` files
 * and an independent JWS signer (node:crypto), and the whole request path with the broker stopped.
 */
import { credentials, loadPackageDefinition, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import type { TailEventMessage, WebhookSubscriptionEvent } from '@tailsync/contracts';
import { createPrivateKey, generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, newServiceAccount } from './support/accounts';
import { collect } from './support/kafka';
import { baseUrl, E2E_GRPC_PORTS, logDir } from './support/test-stack';

const PROTO_ROOT = join(__dirname, '..', '..', 'libs', 'contracts', 'proto');

type Unary = (request: object, metadata: Metadata, options: { deadline: number }, callback: (error: ServiceError | null, reply: any) => void) => void;

function rawClient(service: 'TailSync' | 'WebhookDispatcher', protoFile: string, port: number): Record<string, Unary> {
  const definition = loadSync(protoFile, { includeDirs: [PROTO_ROOT], keepCase: false, longs: Number, enums: String, defaults: true, oneofs: true });
  const pkg = loadPackageDefinition(definition) as any;
  return new pkg.tailsync.v1[service](`127.0.0.1:${port}`, credentials.createInsecure());
}

function call(client: Record<string, Unary>, method: string, request: object, token?: string): Promise<{ error: ServiceError | null; reply: any }> {
  const metadata = new Metadata();
  if (token !== undefined) metadata.set('tailsync-caller', token);
  return new Promise((resolve) => client[method].call(client, request, metadata, { deadline: Date.now() + 5000 }, (error, reply) => resolve({ error, reply })));
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact EdDSA JWS, made here with node:crypto alone (not the services' library). */
function jws(claims: object, key: KeyObject): string {
  const input = `${b64url({ alg: 'EdDSA', typ: 'JWT' })}.${b64url(claims)}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);
const claims = (overrides: object = {}) => ({ iss: 'tailsync-gateway', aud: 'tail-sync', dom: 'grpc-probe', sub: 'raw-client', rid: randomUUID(), iat: now(), exp: now() + 30, ...overrides });

describe('the services over gRPC, called by a raw client that is not the gateway', () => {
  const gatewayKey = () => createPrivateKey(process.env.SERVICE_SIGNING_KEY as string);
  const tailSync = rawClient('TailSync', 'tailsync/v1/tail_sync.proto', E2E_GRPC_PORTS['tail-sync'][0]);
  const dispatcher = rawClient('WebhookDispatcher', 'tailsync/v1/webhook_dispatcher.proto', E2E_GRPC_PORTS['webhook-dispatcher'][0]);

  it('answers a caller the gateway key signed, in the caller\'s domain only', async () => {
    const { error, reply } = await call(tailSync, 'GetTail', { tailId: 'nobody-has-this' }, jws(claims(), gatewayKey()));
    expect(error).toBeNull();
    expect(reply).toMatchObject({ result: 'problem', problem: { kind: 'NOT_FOUND' } });
    const ping = await call(dispatcher, 'Ping', {}, jws(claims({ aud: 'webhook-dispatcher' }), gatewayKey()));
    expect(ping.error).toBeNull();
    expect(ping.reply).toMatchObject({ service: 'webhook-dispatcher', ready: true });
  });

  it.each([
    ['no signed caller', () => undefined, /no signed caller/],
    ['an expired one', () => jws(claims({ iat: now() - 120, exp: now() - 60 }), gatewayKey()), /expired/i],
    ['a forged one (another key)', () => jws(claims(), generateKeyPairSync('ed25519').privateKey), /invalid|signature/i],
    ['one for the other service', () => jws(claims({ aud: 'webhook-dispatcher' }), gatewayKey()), /aud/i],
    ['one living longer than 60 s', () => jws(claims({ exp: now() + 3600 }), gatewayKey()), /60 s/],
    ['a garbled one', () => 'not.a.token', /refused/],
  ])('refuses a call with %s: UNAUTHENTICATED, and logs it', async (_name, token, reason) => {
    const before = refusalsLogged('tail-sync');
    const { error, reply } = await call(tailSync, 'GetTail', { tailId: 'x' }, token());
    expect(reply).toBeFalsy();
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(error?.details).toMatch(reason);
    const deadline = Date.now() + 5000;
    while (refusalsLogged('tail-sync') <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(refusalsLogged('tail-sync')).toBeGreaterThan(before);
  });

  it('refuses the dispatcher\'s calls without a signed caller too', async () => {
    const { error } = await call(dispatcher, 'GetSubscription', {});
    expect(error?.code).toBe(status.UNAUTHENTICATED);
  });
});

/** Lines of the service's log (shared copy and replacements) saying a call was refused. */
function refusalsLogged(service: string): number {
  return readdirSync(logDir())
    .filter((f) => f.startsWith(service) && f.endsWith('.log'))
    .reduce((n, f) => n + readFileSync(join(logDir(), f), 'utf8').split('\n').filter((line) => line.includes('call refused')).length, 0);
}

describe('the request path without Kafka', () => {
  const brokerPid = () => Number(readFileSync(join(process.env.TAILSYNC_TEST_DATA as string, 'kafka', 'kafka.pid'), 'utf8').trim());

  it('answers every kind of call with the broker stopped (SIGSTOP); the events reach Kafka once it runs again', async () => {
    const account = await newServiceAccount();
    const pid = brokerPid();
    const timings: Record<string, number> = {};
    const timed = async <T>(name: string, request: () => Promise<T>): Promise<T> => {
      const t0 = Date.now();
      const result = await request();
      timings[name] = Date.now() - t0;
      return result;
    };
    process.kill(pid, 'SIGSTOP');
    try {
      const put = await timed('PUT', () => api(account, 'PUT', '/Tails', { tailId: 'nk-1', tailNumber: 'NK-1' }));
      expect(put.status).toBe(201);
      expect((await timed('GET', () => api(account, 'GET', '/Tails/nk-1'))).body).toMatchObject({ mappedId: 'nk-1', tailNumber: 'NK-1', status: 'active' });
      const bulk = await timed('bulk', () => api(account, 'PUT', '/Tails/Bulk', { tails: [{ tailId: 'nk-2', tailNumber: 'NK-2' }, { tailId: 'nk-3', tailNumber: 'NK-3' }] }));
      expect(bulk.body.operations.map((o: { wasCreated: boolean }) => o.wasCreated)).toEqual([true, true]);
      const renamed = await timed('ChangeTailNumber', () => api(account, 'POST', '/Tails/ChangeTailNumber', { tailId: 'nk-1', newTailNumber: 'NK-1B' }));
      expect(renamed.body).toMatchObject({ tailNumber: 'NK-1B', version: 2 });
      const list = await timed('list', () => api(account, 'GET', '/Tails'));
      expect(list.body.items.map((t: { mappedId: string }) => t.mappedId).sort()).toEqual(['nk-1', 'nk-2', 'nk-3']);
      const history = await timed('history', () => api(account, 'GET', '/Tails/nk-1/History'));
      expect(history.body.items.map((e: { type: string }) => e.type)).toEqual(['TailCreated', 'TailRenumbered']);
      const saved = await timed('subscription save', () =>
        api(account, 'POST', '/WebhookSubscriptions/', { eventNames: ['Product.RiskAssessmentExecuted'], url: 'http://127.0.0.1:9/hook', sharedSecret: 'k'.repeat(64) }),
      );
      expect(saved.status).toBe(200);
      expect((await timed('subscription read', () => api(account, 'GET', '/WebhookSubscriptions'))).status).toBe(200);
      expect((await timed('delivery log', () => api(account, 'GET', '/WebhookSubscriptions/Deliveries'))).body).toEqual({ items: [], nextCursor: null });
      // The API stays in rotation: nothing it answers needs the broker.
      expect((await fetch(`${baseUrl()}/health/ready`)).status).toBe(200);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    console.log(`[broker stopped] ms per call: ${JSON.stringify(timings)}`);
    for (const ms of Object.values(timings)) expect(ms).toBeLessThan(3000);

    const tailEvents = await collect<TailEventMessage>(
      'tailsync.tail-events',
      (ms) => ms.length >= 4,
      60_000,
      (m) => m.value.domain === account.domain,
    );
    expect(tailEvents.map((m) => m.value.type).sort()).toEqual(['TailCreated', 'TailCreated', 'TailCreated', 'TailRenumbered']);
    const subscriptionEvents = await collect<WebhookSubscriptionEvent>(
      'tailsync.webhook-subscriptions',
      (ms) => ms.length >= 1,
      60_000,
      (m) => m.value.domain === account.domain,
    );
    expect(subscriptionEvents.map((m) => m.value.type)).toEqual(['SubscriptionSaved']);
  });
});
