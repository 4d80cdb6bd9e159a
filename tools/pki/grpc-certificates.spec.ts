/**
 * The service network's certificates (compose's grpc-certs one-shot) as the apps use them: a real
 * gRPC server with a service's files and clients with the gateway's, over TLS on loopback.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import type { GrpcTlsFiles } from '@tailsync/service-kit';
import { ensureServiceNetworkCertificates, RENEW_BEFORE_DAYS, CERTIFICATE_VALIDITY_DAYS, type ServiceNetworkApp } from './grpc-certificates';
import { ping, withGrpcServer } from './grpc-tls-probe.test-support';

const DAY_MS = 86_400_000;

const filesOf = (dir: string, app: ServiceNetworkApp): GrpcTlsFiles => ({ caFile: join(dir, app, 'ca.crt'), certFile: join(dir, app, 'tls.crt'), keyFile: join(dir, app, 'tls.key') });
const read = (dir: string, app: string, file: string) => readFileSync(join(dir, app, file), 'utf8');

describe('the service network certificates (grpc-certs)', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'grpc-certs-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("lets the gateway call a service with its certificate, checks the service's name, and refuses a service's certificate as a client", async () => {
    const dir = fresh();
    await ensureServiceNetworkCertificates(dir);
    const outcomes = await withGrpcServer(filesOf(dir, 'tail-sync'), async (port) => ({
      gateway: await ping(port, filesOf(dir, 'gateway'), 'tail-sync'),
      // tail-sync's certificate does not serve as the dispatcher's.
      asTheDispatcher: await ping(port, filesOf(dir, 'gateway'), 'webhook-dispatcher'),
      // Only the gateway calls: a service's certificate is a server's only.
      dispatcherAsClient: await ping(port, filesOf(dir, 'webhook-dispatcher'), 'tail-sync'),
    }));
    expect(outcomes).toEqual({ gateway: 'answered', asTheDispatcher: 'UNAVAILABLE', dispatcherAsClient: 'UNAVAILABLE' });
  });

  it('keeps every file on a second run, each private key readable by its owner only, in its app\'s directory alone', async () => {
    const dir = fresh();
    expect(await ensureServiceNetworkCertificates(dir)).toEqual({ ca: 'made', apps: { gateway: 'made', 'tail-sync': 'made', 'webhook-dispatcher': 'made' } });
    const before = ['gateway', 'tail-sync', 'webhook-dispatcher'].map((app) => read(dir, app, 'tls.key') + read(dir, app, 'tls.crt'));
    expect(await ensureServiceNetworkCertificates(dir)).toEqual({ ca: 'kept', apps: { gateway: 'kept', 'tail-sync': 'kept', 'webhook-dispatcher': 'kept' } });
    expect(['gateway', 'tail-sync', 'webhook-dispatcher'].map((app) => read(dir, app, 'tls.key') + read(dir, app, 'tls.crt'))).toEqual(before);
    for (const app of ['ca', 'gateway', 'tail-sync', 'webhook-dispatcher']) {
      expect({ app, files: readdirSync(join(dir, app)).sort() }).toEqual({ app, files: app === 'ca' ? ['ca.crt', 'ca.key'] : ['ca.crt', 'tls.crt', 'tls.key'] });
      expect({ app, keyMode: statSync(join(dir, app, app === 'ca' ? 'ca.key' : 'tls.key')).mode & 0o777 }).toEqual({ app, keyMode: 0o600 });
    }
    const gateway = new X509Certificate(read(dir, 'gateway', 'tls.crt'));
    expect({ subject: gateway.subject, altNames: gateway.subjectAltName, ca: gateway.ca }).toEqual({ subject: 'CN=gateway', altNames: 'DNS:gateway', ca: false });
  });

  it('issues again, from the same CA, a certificate close to its end or missing', async () => {
    const dir = fresh();
    await ensureServiceNetworkCertificates(dir);
    const ca = read(dir, 'ca', 'ca.crt');
    const dispatcherBefore = read(dir, 'webhook-dispatcher', 'tls.crt');
    unlinkSync(join(dir, 'tail-sync', 'tls.key'));
    const later = new Date(Date.now() + (CERTIFICATE_VALIDITY_DAYS - RENEW_BEFORE_DAYS + 1) * DAY_MS);
    expect(await ensureServiceNetworkCertificates(dir, later)).toEqual({ ca: 'kept', apps: { gateway: 'renewed', 'tail-sync': 'made', 'webhook-dispatcher': 'renewed' } });
    expect(read(dir, 'ca', 'ca.crt')).toBe(ca);
    const renewed = new X509Certificate(read(dir, 'webhook-dispatcher', 'tls.crt'));
    expect(read(dir, 'webhook-dispatcher', 'tls.crt')).not.toBe(dispatcherBefore);
    expect(renewed.verify(new X509Certificate(ca).publicKey)).toBe(true);
    expect(new Date(renewed.validTo).getTime()).toBeGreaterThan(later.getTime() + (CERTIFICATE_VALIDITY_DAYS - 1) * DAY_MS);
  });

  it("only checks the operator's own certificates (no CA key), and names what is missing", async () => {
    const dir = fresh();
    await ensureServiceNetworkCertificates(dir);
    rmSync(join(dir, 'ca'), { recursive: true });
    const gatewayKey = read(dir, 'gateway', 'tls.key');
    expect(await ensureServiceNetworkCertificates(dir)).toEqual({ ca: 'operator', apps: { gateway: 'kept', 'tail-sync': 'kept', 'webhook-dispatcher': 'kept' } });
    expect(read(dir, 'gateway', 'tls.key')).toBe(gatewayKey);
    unlinkSync(join(dir, 'tail-sync', 'tls.crt'));
    await expect(ensureServiceNetworkCertificates(dir)).rejects.toThrow("the service network's certificates are the operator's own (no CA key here), and tail-sync: missing");
  });
});
