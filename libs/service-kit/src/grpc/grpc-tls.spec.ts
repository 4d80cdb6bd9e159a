import { Client, credentials, type ChannelCredentials, Metadata, Server, type ServerCredentials, type ServiceError, status } from '@grpc/grpc-js';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { grpcServerOptions } from './grpc-server';
import { TestPki } from './test-pki.test-support';
import { gatewayChannelCredentials, GRPC_TLS_REFRESH_MS, grpcTlsFiles, type GrpcTlsFiles, serviceNameCheck } from './grpc-tls';

const PATH = '/tailsync.test.Echo/Say';
const raw = { path: PATH, requestStream: false, responseStream: false, requestSerialize: (b: Buffer) => b, requestDeserialize: (b: Buffer) => b, responseSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => b };

function call(client: Client): Promise<string> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(PATH, raw.requestSerialize, raw.responseDeserialize, Buffer.from('ping'), new Metadata(), { deadline: Date.now() + 3_000 }, (error: ServiceError | null, reply?: Buffer) =>
      error ? reject(error) : resolve(String(reply)),
    );
  });
}

describe('mutual TLS between the gateway and a service (GRPC_TLS_*)', () => {
  let pki: TestPki;
  let server: Server;
  let port: number;
  let service: GrpcTlsFiles;
  const clients: Client[] = [];

  /** A client of the service on this port, as the gateway makes one, with the given credentials. */
  const clientWith = (creds: ChannelCredentials, serviceName = 'tail-sync') => {
    const client = new Client(`ipv4:127.0.0.1:${port}`, creds, serviceNameCheck(serviceName));
    clients.push(client);
    return client;
  };
  const asGateway = (files: GrpcTlsFiles, serviceName?: string) => clientWith(gatewayChannelCredentials(files), serviceName);
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'answered', (error: ServiceError) => status[error.code]);

  beforeAll(async () => {
    pki = new TestPki(mkdtempSync(join(tmpdir(), 'grpc-tls-')));
    pki.ca('ca');
    pki.ca('other-ca');
    service = pki.files('ca', 'tail-sync');
    // The service's own certificate files, which the rotation test replaces.
    const live = { caFile: service.caFile, certFile: join(pki.dir, 'live.pem'), keyFile: join(pki.dir, 'live.key') };
    copyFileSync(service.certFile, live.certFile);
    copyFileSync(service.keyFile, live.keyFile);
    const options = grpcServerOptions({ protoFile: 'unused.proto', port: 0, tls: live }).options as { credentials: ServerCredentials };
    server = new Server();
    server.addService({ Say: raw }, { Say: (c: { request: Buffer }, done: (e: null, r: Buffer) => void) => done(null, Buffer.concat([Buffer.from('pong:'), c.request])) });
    port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', options.credentials, (e, p) => (e ? reject(e) : resolve(p))));
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    rmSync(pki.dir, { recursive: true, force: true });
  });

  it('serves the gateway, whose certificate the CA issued', async () => {
    expect(await call(asGateway(pki.files('ca', 'gateway')))).toBe('pong:ping');
  });

  it('refuses plaintext', async () => {
    expect(await codeOf(call(clientWith(credentials.createInsecure())))).toBe('UNAVAILABLE');
  });

  it('refuses a gateway certificate from another CA', async () => {
    expect(await codeOf(call(asGateway({ ...pki.files('other-ca', 'gateway'), caFile: service.caFile })))).toBe('UNAVAILABLE');
  });

  it('refuses a certificate of the CA that does not name the gateway (another service\'s)', async () => {
    expect(await codeOf(call(asGateway(pki.files('ca', 'webhook-dispatcher'))))).toBe('UNAUTHENTICATED');
  });

  it('lets the gateway refuse a service whose certificate is not for the service it calls', async () => {
    expect(await codeOf(call(asGateway(pki.files('ca', 'gateway'), 'webhook-dispatcher')))).toBe('UNAVAILABLE');
  });

  it('serves a rotated certificate from its files without a restart', async () => {
    const servedSerial = () =>
      new Promise<string>((resolve, reject) => {
        const gateway = pki.issue('ca', 'gateway', 'probe');
        const socket = connect({ host: '127.0.0.1', port, servername: 'tail-sync', ALPNProtocols: ['h2'], ca: [readFileSync(service.caFile)], cert: readFileSync(gateway.certFile), key: readFileSync(gateway.keyFile) });
        socket.once('secureConnect', () => {
          const certificate: PeerCertificate = socket.getPeerCertificate();
          socket.destroy();
          resolve(certificate.serialNumber);
        });
        socket.once('error', reject);
      });
    const before = await servedSerial();
    const rotated = pki.issue('ca', 'tail-sync', 'rotated');
    copyFileSync(rotated.keyFile, join(pki.dir, 'live.key'));
    copyFileSync(rotated.certFile, join(pki.dir, 'live.pem'));
    await new Promise((resolve) => setTimeout(resolve, GRPC_TLS_REFRESH_MS + 1_500));
    const after = await servedSerial();
    expect(after).not.toBe(before);
    expect(await call(asGateway(pki.files('ca', 'gateway')))).toBe('pong:ping');
  }, 20_000);

  it('takes the three settings together, or none', () => {
    expect(grpcTlsFiles({})).toBeUndefined();
    expect(grpcTlsFiles({ GRPC_TLS_CA_FILE: 'ca.pem', GRPC_TLS_CERT_FILE: 'c.pem', GRPC_TLS_KEY_FILE: 'k.pem' })).toEqual({ caFile: 'ca.pem', certFile: 'c.pem', keyFile: 'k.pem' });
    expect(() => grpcTlsFiles({ GRPC_TLS_CA_FILE: 'ca.pem' })).toThrow('GRPC_TLS_CA_FILE, GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE go together');
  });
});
