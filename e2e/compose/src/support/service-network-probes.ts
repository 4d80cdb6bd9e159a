/**
 * What a client on the compose network meets at a service's gRPC port, as an intruder tries it:
 * plaintext, a certificate of another CA, one of the stack's CA that does not name the gateway,
 * another service's own; and the gateway's, which gets an answer. The services' ports are not
 * published: the probes dial the containers' addresses on the compose network (a private range).
 */
import { type ChannelCredentials, credentials, loadPackageDefinition, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { CALL_METADATA, CallerTokenSigner, gatewayChannelCredentials, type GrpcTlsFiles, serviceNameCheck } from '@tailsync/service-kit';
import { TestPki } from '@tailsync/service-kit/testing';
import { ensureServiceNetworkCertificates } from '@tailsync/tools/testing';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ComposeProject, docker, REPO_ROOT } from './compose-project';

export const SERVICES = ['tail-sync', 'webhook-dispatcher'] as const;
export type Service = (typeof SERVICES)[number];
const PROTO = { 'tail-sync': ['tail_sync', 'TailSync'], 'webhook-dispatcher': ['webhook_dispatcher', 'WebhookDispatcher'] } as const;

/**
 * The status of a `Ping` with these credentials, checking the service's name as the gateway does.
 * Every probe carries a valid signed caller (the gateway's readiness caller, signed with the
 * stack's key): what decides is the transport alone.
 */
export function pingAs(service: Service, address: string, creds: ChannelCredentials, signingKey: string): Promise<string> {
  const root = join(REPO_ROOT, 'libs', 'contracts', 'proto');
  const [file, name] = PROTO[service];
  const pkg = loadPackageDefinition(loadSync(join(root, 'tailsync', 'v1', `${file}.proto`), { includeDirs: [root] })) as any;
  const client = new pkg.tailsync.v1[name](address, creds, serviceNameCheck(service));
  const metadata = new Metadata();
  metadata.set(CALL_METADATA.caller, new CallerTokenSigner(signingKey).sign({ domain: 'health', source: 'gateway', role: 'public' }, service).token);
  return new Promise((resolve) =>
    client.Ping({}, metadata, { deadline: Date.now() + 10_000 }, (error: ServiceError | null) => {
      client.close();
      resolve(error ? status[error.code] : 'answered');
    }),
  );
}

/** The credentials the probes try, against a stack's certificates (copied out of its grpc-certs volumes). */
export interface ServiceNetworkCredentials {
  gateway: ChannelCredentials;
  plaintext: ChannelCredentials;
  otherCa: ChannelCredentials;
  notTheGateway: ChannelCredentials;
  ownOf: Record<Service, ChannelCredentials>;
}

const filesIn = (dir: string): GrpcTlsFiles => ({ caFile: join(dir, 'ca.crt'), certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') });

/** The certificates grpc-certs made, as files here (`docker cp` from its container, whose volumes hold them). */
export function copyServiceNetworkCertificates(stack: ComposeProject, dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  docker(['cp', `${stack.containerOf('grpc-certs')}:/var/lib/tailsync/grpc-tls/.`, dir]);
}

export async function serviceNetworkCredentials(stack: ComposeProject): Promise<ServiceNetworkCredentials> {
  const dir = join(REPO_ROOT, '.data', 'compose', `${stack.name}-grpc-tls`);
  copyServiceNetworkCertificates(stack, dir);
  // Another CA's complete set, made the same way: its gateway certificate is well formed, only not ours.
  await ensureServiceNetworkCertificates(join(dir, 'other'));
  // A client certificate the stack's own CA issued, to a name that is not the gateway.
  const pki = new TestPki(join(dir, 'intruder'));
  copyFileSync(join(dir, 'ca', 'ca.crt'), join(pki.dir, 'stack-ca.pem'));
  copyFileSync(join(dir, 'ca', 'ca.key'), join(pki.dir, 'stack-ca.key'));
  const intruder = pki.issue('stack-ca', 'intruder');
  const trustingOurCa = (files: GrpcTlsFiles) => gatewayChannelCredentials({ ...files, caFile: join(dir, 'ca', 'ca.crt') });
  return {
    gateway: gatewayChannelCredentials(filesIn(join(dir, 'gateway'))),
    plaintext: credentials.createInsecure(),
    otherCa: trustingOurCa(filesIn(join(dir, 'other', 'gateway'))),
    notTheGateway: trustingOurCa({ caFile: '', ...intruder }),
    ownOf: { 'tail-sync': trustingOurCa(filesIn(join(dir, 'tail-sync'))), 'webhook-dispatcher': trustingOurCa(filesIn(join(dir, 'webhook-dispatcher'))) },
  };
}

/** SHA-256 of the certificate an app's container mounts: the same after a restart means kept. */
export function mountedCertificateDigest(stack: ComposeProject, app: string): string {
  const pem = stack.must(['exec', '-T', app, 'cat', '/etc/tailsync/grpc-tls/tls.crt']);
  return createHash('sha256').update(pem).digest('hex');
}
