/**
 * Requests between the gateway and the services travel over gRPC (contract: "Requests between
 * services"). Checked from outside the gateway: a raw gRPC client built from the `.proto` files
 * and an independent JWS signer (node:crypto), and the whole request path with the broker stopped.
 */
import { credentials, loadPackageDefinition, Metadata, Server, ServerCredentials, type ServiceError, status } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import type { TailEventMessage, WebhookSubscriptionEvent } from '@tailsync/contracts';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, newServiceAccount } from './support/accounts';
import { loggedInstances, logLines, untilLogged } from './support/app-logs';
import { collect } from './support/kafka';
import { type AppProcess, baseUrl, E2E_GRPC_PORTS, startApp, waitForHttp } from './support/test-stack';

const PROTO_ROOT = join(__dirname, '..', '..', 'libs', 'contracts', 'proto');
const LOADER = { includeDirs: [PROTO_ROOT], keepCase: false, longs: Number, enums: String, defaults: true, oneofs: true };

type Unary = (request: object, metadata: Metadata, options: { deadline: number }, callback: (error: ServiceError | null, reply: any) => void) => void;
type Service = 'TailSync' | 'WebhookDispatcher';
const PROTO_FILE: Record<Service, string> = { TailSync: 'tailsync/v1/tail_sync.proto', WebhookDispatcher: 'tailsync/v1/webhook_dispatcher.proto' };

const servicePackage = (service: Service) => (loadPackageDefinition(loadSync(PROTO_FILE[service], LOADER)) as any).tailsync.v1[service];

function rawClient(service: Service, port: number): Record<string, Unary> {
  return new (servicePackage(service))(`127.0.0.1:${port}`, credentials.createInsecure());
}

function call(client: Record<string, Unary>, method: string, request: object, token?: string): Promise<{ error: ServiceError | null; reply: any }> {
  const metadata = new Metadata();
  if (token !== undefined) metadata.set('tailsync-caller', token);
  return new Promise((resolve) => client[method].call(client, request, metadata, { deadline: Date.now() + 5000 }, (error, reply) => resolve({ error, reply })));
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A key's RFC 7638 thumbprint, computed here (the `kid` the contract's callers name their key by). */
function thumbprint(key: KeyObject): string {
  const { x } = createPublicKey(key).export({ format: 'jwk' }) as { x: string };
  return createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');
}

/** A compact EdDSA JWS, made here with node:crypto alone (not the services' library); its header names `kid` unless it is null. */
function jws(claims: object, key: KeyObject, kid: string | null = thumbprint(key)): string {
  const input = `${b64url({ alg: 'EdDSA', typ: 'JWT', ...(kid === null ? {} : { kid }) })}.${b64url(claims)}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
}

const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as Record<string, unknown>;

const now = () => Math.floor(Date.now() / 1000);
const claims = (overrides: object = {}) => ({ iss: 'tailsync-gateway', aud: 'tail-sync', dom: 'grpc-probe', sub: 'raw-client', role: 'tenant', iat: now(), exp: now() + 30, ...overrides });
const gatewayKey = () => createPrivateKey(process.env.SERVICE_SIGNING_KEY as string);
const pemOf = (key: KeyObject) => createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();

describe('the services over gRPC, called by a raw client that is not the gateway', () => {
  const tailSync = rawClient('TailSync', E2E_GRPC_PORTS['tail-sync'][0]);
  const dispatcher = rawClient('WebhookDispatcher', E2E_GRPC_PORTS['webhook-dispatcher'][0]);

  it('answers a caller the gateway key signed, in the caller\'s domain only', async () => {
    const { error, reply } = await call(tailSync, 'GetTail', { tailId: 'nobody-has-this' }, jws(claims(), gatewayKey()));
    expect(error).toBeNull();
    expect(reply).toMatchObject({ result: 'problem', problem: { kind: 'NOT_FOUND' } });
    const ping = await call(dispatcher, 'Ping', {}, jws(claims({ aud: 'webhook-dispatcher', role: 'public' }), gatewayKey()));
    expect(ping.error).toBeNull();
    expect(ping.reply).toMatchObject({ service: 'webhook-dispatcher', ready: true });
  });

  it.each([
    ['no signed caller', () => undefined, /no signed caller/],
    ['an expired one', () => jws(claims({ iat: now() - 120, exp: now() - 60 }), gatewayKey()), /expired/i],
    ['a forged one (another key, naming the gateway key\'s kid)', () => jws(claims(), generateKeyPairSync('ed25519').privateKey, thumbprint(gatewayKey())), /invalid|signature/i],
    ['one signed with a key the service does not list (an unknown kid)', () => jws(claims(), generateKeyPairSync('ed25519').privateKey), /kid/],
    ['one naming no kid', () => jws(claims(), gatewayKey(), null), /kid/],
    ['one for the other service', () => jws(claims({ aud: 'webhook-dispatcher' }), gatewayKey()), /aud/i],
    ['one living longer than 60 s', () => jws(claims({ exp: now() + 3600 }), gatewayKey()), /60 s/],
    ['one naming no role', () => jws({ ...claims(), role: undefined }, gatewayKey()), /role/],
    ['one naming a role there is not', () => jws(claims({ role: 'admin' }), gatewayKey()), /role/],
    ['a garbled one', () => 'not.a.token', /refused/],
  ])('refuses a call with %s: UNAUTHENTICATED, and logs it', async (_name, token, reason) => {
    const before = refusalsLogged('tail-sync');
    const { error, reply } = await call(tailSync, 'GetTail', { tailId: 'x' }, token());
    expect(reply).toBeFalsy();
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(error?.details).toMatch(reason);
    await untilMoreRefusals('tail-sync', before);
  });

  it('refuses a call of several reads (GetTails) without a signed caller too', async () => {
    const { error, reply } = await call(tailSync, 'GetTails', { tails: [{ mappedId: 'x' }, { mappedId: 'y' }] });
    expect(reply).toBeFalsy();
    expect(error?.code).toBe(status.UNAUTHENTICATED);
  });

  it('refuses the dispatcher\'s calls without a signed caller too', async () => {
    const { error } = await call(dispatcher, 'GetSubscription', {});
    expect(error?.code).toBe(status.UNAUTHENTICATED);
  });

  const clients = { TailSync: tailSync, WebhookDispatcher: dispatcher } as const;
  const audience = { TailSync: 'tail-sync', WebhookDispatcher: 'webhook-dispatcher' } as const;
  it.each([
    ['tenant', 'TailSync', 'CountTails', { domains: ['grpc-probe'] }],
    ['tenant', 'TailSync', 'ReadActivity', { since: '2026-01-01T00:00:00Z' }],
    ['tenant', 'WebhookDispatcher', 'DisableSubscription', {}],
    ['tenant', 'WebhookDispatcher', 'ReadActivity', { since: '2026-01-01T00:00:00Z' }],
    ['public', 'TailSync', 'GetTail', { tailId: 'x' }],
    ['public', 'TailSync', 'GetTails', { tails: [{ mappedId: 'x' }] }],
    ['public', 'TailSync', 'CreateOrMap', { tails: [{ tailId: 'public-1', tailNumber: 'N1' }] }],
    ['public', 'TailSync', 'CountTails', { domains: ['grpc-probe'] }],
    ['public', 'WebhookDispatcher', 'GetSubscription', {}],
    ['public', 'WebhookDispatcher', 'PutSubscription', { eventNames: ['Product.RiskAssessmentExecuted'], url: 'http://127.0.0.1:9/hook' }],
    ['public', 'WebhookDispatcher', 'ListSigningKeys', {}],
    ['operator', 'WebhookDispatcher', 'GetSigningKeySet', {}],
    ['operator', 'TailSync', 'CreateOrMap', { tails: [{ tailId: 'operator-1', tailNumber: 'N1' }] }],
  ] as const)('refuses a %s caller on %s.%s: PERMISSION_DENIED, and logs it', async (role, service, method, request) => {
    const log = audience[service];
    const before = refusalsLogged(log, 'PERMISSION_DENIED');
    const { error, reply } = await call(clients[service], method, request, jws(claims({ aud: audience[service], role }), gatewayKey()));
    expect(reply).toBeFalsy();
    expect(error?.code).toBe(status.PERMISSION_DENIED);
    expect(error?.details).toMatch(new RegExp(`role \\(${role}\\)`));
    await untilMoreRefusals(log, before, 'PERMISSION_DENIED');
  });

  it('answers an operator on the operator methods and a public caller on the JWK Set', async () => {
    const operator = (aud: string) => jws(claims({ aud, role: 'operator', dom: '*', sub: 'admin' }), gatewayKey());
    const counts = await call(tailSync, 'CountTails', { domains: ['grpc-probe'] }, operator('tail-sync'));
    expect(counts.error).toBeNull();
    expect((await call(dispatcher, 'ReadActivity', { since: new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString() }, operator('webhook-dispatcher'))).error).toBeNull();
    const keys = await call(dispatcher, 'GetSigningKeySet', {}, jws(claims({ aud: 'webhook-dispatcher', role: 'public', sub: 'jwks' }), gatewayKey()));
    expect(keys.error).toBeNull();
    expect(keys.reply).toMatchObject({ result: 'keySet' });
  });

  it('answers the same caller from its cache, and refuses those bytes once they expired (5 s of clock skew allowed)', async () => {
    const token = jws(claims({ iat: now(), exp: now() + 1 }), gatewayKey());
    for (let i = 0; i < 3; i++) expect((await call(tailSync, 'GetTail', { tailId: 'x' }, token)).error).toBeNull();
    const expiresAt = (payloadOf(token).exp as number) * 1000 + 5_000;
    await new Promise((r) => setTimeout(r, expiresAt - Date.now() + 1_000));
    const { error } = await call(tailSync, 'GetTail', { tailId: 'x' }, token);
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(error?.details).toMatch(/expired/);
  });
});

describe('the key pair rotating one copy at a time', () => {
  const nextKey = generateKeyPairSync('ed25519').privateKey;
  const KEY_FILE_GATEWAY = 13028;
  let copy: AppProcess | undefined;
  let gateway: AppProcess | undefined;

  afterAll(async () => {
    await gateway?.stop();
    await copy?.stop();
  });

  it('a copy that lists the current and the next key accepts both; a copy that lists only the current refuses the next', async () => {
    // SERVICE_VERIFY_KEY lists both public keys, one PEM after the other.
    copy = startApp('tail-sync', 'tail-sync-two-keys', {
      TAIL_SYNC_HTTP_PORT: '13012',
      TAIL_SYNC_GRPC_PORT: String(E2E_GRPC_PORTS['tail-sync'][1]),
      SERVICE_VERIFY_KEY: `${pemOf(gatewayKey())}${pemOf(nextKey)}`,
    });
    await waitForHttp('http://127.0.0.1:13012/health/ready', 60_000, [copy]);
    const listsBoth = rawClient('TailSync', E2E_GRPC_PORTS['tail-sync'][1]);
    const listsCurrent = rawClient('TailSync', E2E_GRPC_PORTS['tail-sync'][0]);

    for (const key of [gatewayKey(), nextKey]) {
      const { error, reply } = await call(listsBoth, 'GetTail', { tailId: 'nobody-has-this' }, jws(claims(), key));
      expect(error).toBeNull();
      expect(reply).toMatchObject({ result: 'problem', problem: { kind: 'NOT_FOUND' } });
    }
    const refused = await call(listsCurrent, 'GetTail', { tailId: 'x' }, jws(claims(), nextKey));
    expect(refused.error?.code).toBe(status.UNAUTHENTICATED);
    expect(refused.error?.details).toMatch(/kid/);
  });

  it('moves to the next pair without a restart: the service reads SERVICE_VERIFY_KEY_FILE again, the gateway SERVICE_SIGNING_KEY_FILE', async () => {
    await copy?.stop();
    const dir = mkdtempSync(join(process.env.TAILSYNC_TEST_DATA ?? tmpdir(), 'service-keys-'));
    const verifyFile = join(dir, 'service_verify_key');
    const signingFile = join(dir, 'service_signing_key');
    writeFileSync(verifyFile, pemOf(gatewayKey()));
    writeFileSync(signingFile, process.env.SERVICE_SIGNING_KEY as string);
    // Both read their key from a file, as compose and the chart give it; nothing in the environment.
    copy = startApp('tail-sync', 'tail-sync-key-file', {
      TAIL_SYNC_HTTP_PORT: '13012',
      TAIL_SYNC_GRPC_PORT: String(E2E_GRPC_PORTS['tail-sync'][1]),
      SERVICE_VERIFY_KEY: '',
      SERVICE_VERIFY_KEY_FILE: verifyFile,
    });
    gateway = startApp('gateway', 'gateway-key-file', {
      PORT: String(KEY_FILE_GATEWAY),
      TAIL_SYNC_GRPC_TARGET: `ipv4:127.0.0.1:${E2E_GRPC_PORTS['tail-sync'][1]}`,
      SERVICE_SIGNING_KEY: '',
      SERVICE_SIGNING_KEY_FILE: signingFile,
    });
    await waitForHttp(`http://127.0.0.1:${KEY_FILE_GATEWAY}/health/ready`, 90_000, [copy, gateway]);
    const account = await newServiceAccount();
    let written = 0;
    const putThroughGateway = async () => {
      const res = await fetch(`http://127.0.0.1:${KEY_FILE_GATEWAY}/Tails`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${account.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ tailId: `rotating-${written}`, tailNumber: `R${written++}` }),
      });
      return res.status;
    };
    const [current, next] = [thumbprint(gatewayKey()), thumbprint(nextKey)];
    expect(await putThroughGateway()).toBe(201);
    // The token bytes the service verified before: cached, until the key that signed them goes.
    const cachedCurrent = jws(claims(), gatewayKey());
    const onCopy = rawClient('TailSync', E2E_GRPC_PORTS['tail-sync'][1]);
    expect((await call(onCopy, 'GetTail', { tailId: 'x' }, cachedCurrent)).error).toBeNull();

    // 1. The next public key beside the current one: the service trusts both.
    writeFileSync(verifyFile, `${pemOf(gatewayKey())}${pemOf(nextKey)}`);
    await untilKeysLogged('tail-sync-key-file', 'SERVICE_VERIFY_KEY read again', [current, next]);
    expect((await call(onCopy, 'GetTail', { tailId: 'x' }, jws(claims(), nextKey))).error).toBeNull();
    expect(await putThroughGateway()).toBe(201);
    // 2. The gateway signs with the next key.
    writeFileSync(signingFile, nextKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    await untilKeysLogged('gateway-key-file', 'SERVICE_SIGNING_KEY read again', [next]);
    expect(await putThroughGateway()).toBe(201);
    // 3. The current key removed: the gateway's calls still land (signed with the next key), the
    // service refuses the current key, even the bytes it had verified and kept.
    writeFileSync(verifyFile, pemOf(nextKey));
    await untilKeysLogged('tail-sync-key-file', 'SERVICE_VERIFY_KEY read again', [next], [current]);
    expect(await putThroughGateway()).toBe(201);
    const refused = await call(onCopy, 'GetTail', { tailId: 'x' }, cachedCurrent);
    expect([refused.error?.code, refused.error?.details]).toEqual([status.UNAUTHENTICATED, expect.stringMatching(/kid/)]);

    // A file that holds no key (half written, a mistake) changes nothing: the key in use stays, and the log says so.
    writeFileSync(verifyFile, '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA');
    await untilKeysLogged('tail-sync-key-file', 'SERVICE_VERIFY_KEY read again from', [], [], 'cannot be used');
    expect(await putThroughGateway()).toBe(201);
    // No key material in any of these lines (every Ed25519 PEM's base64 starts with MCow or MC4C).
    const lines = logLines('tail-sync-key-file').concat(logLines('gateway-key-file')).filter((line) => line.includes('_KEY'));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.filter((line) => line.includes('MCow') || line.includes('MC4C'))).toEqual([]);
  });
});

describe('the public JWK Set read through the gateway', () => {
  const CAPTURE_GATEWAY = 13027;
  const captured: Metadata[] = [];
  let fakeDispatcher: Server | undefined;
  let gateway: AppProcess | undefined;

  afterAll(async () => {
    await gateway?.stop();
    fakeDispatcher?.forceShutdown();
  });

  it('makes a caller with role public for the domain named, which every tenant method refuses', async () => {
    // A gateway copy whose dispatcher is this test's gRPC server: it keeps each call's metadata.
    fakeDispatcher = new Server();
    fakeDispatcher.addService(servicePackage('WebhookDispatcher').service, {
      Ping: (_call: unknown, reply: (e: null, r: object) => void) => reply(null, { service: 'webhook-dispatcher', instance: 'capture', ready: true, checks: {} }),
      GetSigningKeySet: (c: { metadata: Metadata }, reply: (e: null, r: object) => void) => {
        captured.push(c.metadata);
        reply(null, { keySet: { keys: [], maxAgeSeconds: 60 } });
      },
    });
    const port = await new Promise<number>((resolve, reject) => fakeDispatcher?.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
    gateway = startApp('gateway', 'gateway-jwks-capture', { PORT: String(CAPTURE_GATEWAY), WEBHOOK_DISPATCHER_GRPC_TARGET: `ipv4:127.0.0.1:${port}` });
    await waitForHttp(`http://127.0.0.1:${CAPTURE_GATEWAY}/health/ready`, 60_000, [gateway]);

    const account = await newServiceAccount();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`http://127.0.0.1:${CAPTURE_GATEWAY}/.well-known/webhooks/jwks.json?domain=${account.domain}`, { headers: { 'x-request-id': `jwks-${i}` } });
      expect(res.status).toBe(200);
    }
    expect(captured).toHaveLength(2);
    const tokens = captured.map((m) => m.get('tailsync-caller')[0] as string);
    // Reused: one signed caller for both reads; the request id travels beside it.
    expect(tokens[1]).toBe(tokens[0]);
    expect(captured.map((m) => m.get('x-request-id')[0])).toEqual(['jwks-0', 'jwks-1']);
    expect(headerOf(tokens[0])).toMatchObject({ alg: 'EdDSA', kid: thumbprint(gatewayKey()) });
    expect(payloadOf(tokens[0])).toMatchObject({ iss: 'tailsync-gateway', aud: 'webhook-dispatcher', dom: account.domain, role: 'public' });
    // Nothing in it changes per request.
    expect(Object.keys(payloadOf(tokens[0])).sort()).toEqual(['aud', 'dom', 'exp', 'iat', 'iss', 'role', 'sub']);

    // Replayed on the real dispatcher: the key set answers, nothing else does.
    const dispatcher = rawClient('WebhookDispatcher', E2E_GRPC_PORTS['webhook-dispatcher'][0]);
    expect((await call(dispatcher, 'GetSigningKeySet', {}, tokens[0])).error).toBeNull();
    const tenantMethods: [string, object][] = [
      ['PutSubscription', { eventNames: ['Product.RiskAssessmentExecuted'], url: 'http://127.0.0.1:9/hook' }],
      ['GetSubscription', {}], ['DeleteSubscription', {}], ['EnableSubscription', {}], ['DisableSubscription', {}],
      ['TestSubscription', { payloadJson: '{}' }], ['ListDeliveries', {}], ['Redeliver', { id: randomUUID() }],
      ['RecoverDeliveries', { since: '2026-01-01T00:00:00Z' }], ['BackfillDeliveries', { since: '2026-01-01T00:00:00Z' }],
      ['GetBackfill', { backfillId: randomUUID() }], ['CancelBackfill', { backfillId: randomUUID() }], ['ListBackfills', {}],
      ['ListSigningKeys', {}], ['RotateSigningKey', {}], ['RevokeSigningKey', { kid: 'k' }], ['RevokeSigningKeyByOperator', { kid: 'k' }], ['ReadActivity', { since: '2026-01-01T00:00:00Z' }],
      ['ListEvents', {}],
    ];
    for (const [method, request] of tenantMethods) {
      const { error } = await call(dispatcher, method, request, tokens[0]);
      expect([method, error?.code]).toEqual([method, status.PERMISSION_DENIED]);
    }
  });
});

/** Waits until the app has logged `message`, naming every kid of `named` and none of `unnamed` (and `also`, when given). */
async function untilKeysLogged(instance: string, message: string, named: string[], unnamed: string[] = [], also = ''): Promise<void> {
  const matches = (line: string) => line.includes(message) && line.includes(also) && named.every((kid) => line.includes(kid)) && !unnamed.some((kid) => line.includes(kid));
  await untilLogged(instance, matches, { timeoutMs: 20_000, what: `'${message}' naming [${named.join(', ')}], not [${unnamed.join(', ')}]${also ? `, '${also}'` : ''}` });
}

/** Waits until the service has logged another refusal (of this status, when given). */
async function untilMoreRefusals(service: string, before: number, code?: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (refusalsLogged(service, code) <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(refusalsLogged(service, code)).toBeGreaterThan(before);
}

/** Lines of the service's log (shared copy and replacements) saying a call was refused (with this status, when given). */
function refusalsLogged(service: string, code?: string): number {
  return loggedInstances(service)
    .flatMap(logLines)
    .filter((line) => line.includes('call refused') && (code === undefined || line.includes(code))).length;
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
