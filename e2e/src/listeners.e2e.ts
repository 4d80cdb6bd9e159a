/**
 * Every listener binds to HOST (contract, "Running on more than one host"): a copy started with
 * HOST=127.0.0.1 answers on that address, and on no other address of this machine: neither
 * another loopback address (127.0.0.2, routed to the same interface) nor the machine's own
 * network addresses. Checked on each kind of port: the gateway's API and management ports, a
 * service's HTTP (health and metrics) and gRPC ports.
 */
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { startApp, waitForHttp, type AppProcess } from './support/test-stack';

const HOST = '127.0.0.1';
const PORTS = { gatewayApi: 13100, gatewayManagement: 14100, tailSyncHttp: 13111, tailSyncGrpc: 13071 } as const;

/** Addresses of this machine other than HOST: one more loopback address, and every interface's own IPv4. */
function otherAddresses(): string[] {
  const own = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);
  return ['127.0.0.2', ...own];
}

/** Whether a TCP connection to host:port is accepted (refused or silent for 2 s: not). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

describe('listeners bind to HOST', () => {
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    apps.push(
      startApp('tail-sync', 'tail-sync-loopback', { HOST, TAIL_SYNC_HTTP_PORT: String(PORTS.tailSyncHttp), TAIL_SYNC_GRPC_PORT: String(PORTS.tailSyncGrpc) }),
      startApp('gateway', 'gateway-loopback', { HOST, PORT: String(PORTS.gatewayApi), MANAGEMENT_PORT: String(PORTS.gatewayManagement) }),
    );
    await waitForHttp(`http://${HOST}:${PORTS.tailSyncHttp}/health/live`, 60_000, apps);
    await waitForHttp(`http://${HOST}:${PORTS.gatewayApi}/health/live`, 60_000, apps);
    await waitForHttp(`http://${HOST}:${PORTS.gatewayManagement}/health/live`, 60_000, apps);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
  });

  it.each(Object.entries(PORTS))('%s answers on HOST and on no other address of the machine', async (_name, port) => {
    expect(await accepts(HOST, port)).toBe(true);
    const others = otherAddresses();
    const reached = await Promise.all(others.map(async (address) => ({ address, accepted: await accepts(address, port) })));
    expect(reached).toEqual(others.map((address) => ({ address, accepted: false })));
  });
});
