/**
 * Mutual TLS between the gateway and the services (GRPC_TLS_*), with the real apps: a gateway
 * and a copy of each service, all with certificates of one CA, answer the API as the plaintext
 * stack does; the services refuse a plaintext client.
 */
import { credentials, loadPackageDefinition, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { grpcTlsSettings, TestPki } from '@tailsync/service-kit/testing';
import { join } from 'node:path';
import { newServiceAccount } from './support/accounts';
import { type AppProcess, E2E_GRPC_PORTS, logDir, startApp, waitForHttp } from './support/test-stack';

const GATEWAY_PORT = 13027;
const TAIL_SYNC_HTTP = 13013;
const DISPATCHER_HTTP = 13014;
const [tailSyncGrpc, dispatcherGrpc] = [E2E_GRPC_PORTS['tail-sync'][1], E2E_GRPC_PORTS['webhook-dispatcher'][1]];
const gateway = `http://127.0.0.1:${GATEWAY_PORT}`;

/** The status a plaintext client gets for a `Ping` (no caller needed to be refused earlier). */
function plaintextPing(protoName: string, service: string, port: number): Promise<string> {
  const root = join(__dirname, '..', '..', 'libs', 'contracts', 'proto');
  const pkg = loadPackageDefinition(loadSync(join(root, 'tailsync', 'v1', `${protoName}.proto`), { includeDirs: [root] })) as any;
  const client = new pkg.tailsync.v1[service](`127.0.0.1:${port}`, credentials.createInsecure());
  return new Promise((resolve) =>
    client.Ping({}, new Metadata(), { deadline: Date.now() + 3_000 }, (error: ServiceError | null) => {
      client.close();
      resolve(error ? status[error.code] : 'answered');
    }),
  );
}

describe('the gateway and the services over mutual TLS', () => {
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    const pki = new TestPki(join(logDir(), 'mtls-pki'));
    pki.ca('ca');
    apps.push(
      startApp('tail-sync', 'tail-sync-mtls', { TAIL_SYNC_HTTP_PORT: String(TAIL_SYNC_HTTP), TAIL_SYNC_GRPC_PORT: String(tailSyncGrpc), ...grpcTlsSettings(pki.files('ca', 'tail-sync')) }),
      startApp('webhook-dispatcher', 'dispatcher-mtls', {
        WEBHOOK_DISPATCHER_HTTP_PORT: String(DISPATCHER_HTTP),
        WEBHOOK_DISPATCHER_GRPC_PORT: String(dispatcherGrpc),
        ...grpcTlsSettings(pki.files('ca', 'webhook-dispatcher')),
      }),
      startApp('gateway', 'gateway-mtls', {
        PORT: String(GATEWAY_PORT),
        TAIL_SYNC_GRPC_TARGET: `ipv4:127.0.0.1:${tailSyncGrpc}`,
        WEBHOOK_DISPATCHER_GRPC_TARGET: `ipv4:127.0.0.1:${dispatcherGrpc}`,
        ...grpcTlsSettings(pki.files('ca', 'gateway')),
      }),
    );
    // The gateway's readiness calls both services: ready means both TLS channels answer.
    await waitForHttp(`${gateway}/health/ready`, 120_000, apps);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
  });

  it('answers the API through the TLS channels: a tail written and read back', async () => {
    const account = await newServiceAccount();
    const headers = { Authorization: `Bearer ${account.token}`, 'Content-Type': 'application/json' };
    const put = await fetch(`${gateway}/Tails`, { method: 'PUT', headers, body: JSON.stringify({ tailId: 'mtls-1', tailNumber: 'NM001' }) });
    expect(put.status).toBe(201);
    const read = await fetch(`${gateway}/Tails/mtls-1`, { headers });
    expect({ status: read.status, tailNumber: ((await read.json()) as { tailNumber: string }).tailNumber }).toEqual({ status: 200, tailNumber: 'NM001' });
    const subscription = await fetch(`${gateway}/WebhookSubscriptions`, { headers });
    expect(subscription.status).toBe(404); // the dispatcher answered, over its own TLS channel
  });

  it('has each service refuse a plaintext client', async () => {
    expect(await Promise.all([plaintextPing('tail_sync', 'TailSync', tailSyncGrpc), plaintextPing('webhook_dispatcher', 'WebhookDispatcher', dispatcherGrpc)])).toEqual([
      'UNAVAILABLE',
      'UNAVAILABLE',
    ]);
  });
});
