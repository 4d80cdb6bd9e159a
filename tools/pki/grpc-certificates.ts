/**
 * The certificates of the gRPC service network (mutual TLS between the gateway and the services):
 * a CA, and one certificate per app in cert-manager's layout (`ca.crt`, `tls.crt`, `tls.key`),
 * each app's in its own directory so that each container mounts only its own private key.
 * Made only where missing, so a restart or an upgrade keeps them; a certificate close to its end
 * is issued again, and the apps read the new files without a restart.
 */
import 'reflect-metadata'; // @peculiar/x509's dependency injection (tsyringe) needs it loaded first
import * as x509 from '@peculiar/x509';
import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** The apps of the service network, by the names their certificates carry. */
export const SERVICE_NETWORK_APPS = ['gateway', 'tail-sync', 'webhook-dispatcher'] as const;
export type ServiceNetworkApp = (typeof SERVICE_NETWORK_APPS)[number];

/** The gateway only calls (a client certificate); the services only answer (a server certificate). */
const ROLE_OF: Record<ServiceNetworkApp, 'client' | 'server'> = { gateway: 'client', 'tail-sync': 'server', 'webhook-dispatcher': 'server' };

const DAY_MS = 86_400_000;
export const CA_VALIDITY_DAYS = 3650;
export const CERTIFICATE_VALIDITY_DAYS = 365;
/** A certificate with less than this left is issued again (each run: every `docker compose up`). */
export const RENEW_BEFORE_DAYS = 30;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export type CertificateOutcome = 'made' | 'kept' | 'renewed';

export interface ServiceNetworkReport {
  ca: CertificateOutcome | 'operator';
  apps: Record<ServiceNetworkApp, CertificateOutcome>;
}

interface Authority {
  certificate: x509.X509Certificate;
  keys: CryptoKeyPair;
  pem: string;
}

const caDir = (dir: string) => join(dir, 'ca');
const appDir = (dir: string, app: ServiceNetworkApp) => join(dir, app);

/** Written beside, then renamed: a reader (the app's file watcher) sees the old file or the new one, never half. */
function writeAtomically(file: string, content: string, mode: number): void {
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
  writeFileSync(partial, content, { mode });
  renameSync(partial, file);
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

async function importPrivateKey(pem: string): Promise<CryptoKey> {
  return (await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(pem), ALGORITHM, true, ['sign'])) as CryptoKey;
}

const serialNumber = () => {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f; // positive, as RFC 5280 asks
  return bytes.toString('hex');
};

function validity(days: number, now: Date): { notBefore: Date; notAfter: Date } {
  // A minute back: a peer whose clock is a little behind still accepts it at once.
  return { notBefore: new Date(now.getTime() - 60_000), notAfter: new Date(now.getTime() + days * DAY_MS) };
}

async function makeAuthority(dir: string, now: Date): Promise<Authority> {
  const keys = await newKeys();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: 'CN=tailsync service network CA',
    ...validity(CA_VALIDITY_DAYS, now),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  mkdirSync(caDir(dir), { recursive: true, mode: 0o700 });
  writeAtomically(join(caDir(dir), 'ca.key'), await privateKeyPem(keys.privateKey), 0o600);
  const pem = certificate.toString('pem');
  writeAtomically(join(caDir(dir), 'ca.crt'), `${pem}\n`, 0o644);
  return { certificate, keys, pem };
}

async function readAuthority(dir: string): Promise<Authority> {
  const pem = readFileSync(join(caDir(dir), 'ca.crt'), 'utf8');
  const certificate = new x509.X509Certificate(pem);
  const privateKey = await importPrivateKey(readFileSync(join(caDir(dir), 'ca.key'), 'utf8'));
  return { certificate, keys: { privateKey, publicKey: await certificate.publicKey.export(ALGORITHM, ['verify']) as CryptoKey }, pem: certificate.toString('pem') };
}

/** Why an app's files cannot stay (missing, from another CA, ending soon), or undefined when they can. */
function reasonToReplace(dir: string, app: ServiceNetworkApp, caPem: string | undefined, now: Date): string | undefined {
  const files = ['ca.crt', 'tls.crt', 'tls.key'].map((f) => join(appDir(dir, app), f));
  if (!files.every((f) => existsSync(f))) return 'missing';
  const certificate = new X509Certificate(readFileSync(files[1]));
  const trusted = new X509Certificate(caPem ?? readFileSync(files[0]));
  if (!certificate.checkIssued(trusted) || !certificate.verify(trusted.publicKey)) return 'not issued by the CA';
  if (new Date(certificate.validTo).getTime() - now.getTime() < RENEW_BEFORE_DAYS * DAY_MS) return 'ending soon';
  return undefined;
}

async function issue(dir: string, app: ServiceNetworkApp, authority: Authority, now: Date): Promise<void> {
  const keys = await newKeys();
  const usage = ROLE_OF[app] === 'client' ? x509.ExtendedKeyUsage.clientAuth : x509.ExtendedKeyUsage.serverAuth;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: `CN=${app}`,
    issuer: authority.certificate.subject,
    ...validity(CERTIFICATE_VALIDITY_DAYS, now),
    publicKey: keys.publicKey,
    signingKey: authority.keys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([usage]),
      // The gateway checks a service's certificate for the service's name; a service checks that the client's names the gateway.
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: app }]),
      await x509.AuthorityKeyIdentifierExtension.create(authority.keys.publicKey),
    ],
  });
  const target = appDir(dir, app);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  // The key first: the certificate that goes with it is only put in place once its key is there.
  writeAtomically(join(target, 'tls.key'), await privateKeyPem(keys.privateKey), 0o600);
  writeAtomically(join(target, 'tls.crt'), `${certificate.toString('pem')}\n`, 0o644);
  writeAtomically(join(target, 'ca.crt'), `${authority.pem}\n`, 0o644);
}

/**
 * Makes what is missing under `dir` and issues again what is ending. Without the CA's key but with
 * an app's files there, the certificates are the operator's own: they are only checked, and a
 * missing or ending one is an error that says what to do.
 */
export async function ensureServiceNetworkCertificates(dir: string, now = new Date()): Promise<ServiceNetworkReport> {
  const haveCaKey = existsSync(join(caDir(dir), 'ca.key')) && existsSync(join(caDir(dir), 'ca.crt'));
  const anyAppFiles = SERVICE_NETWORK_APPS.some((app) => existsSync(join(appDir(dir, app), 'tls.crt')));
  if (!haveCaKey && anyAppFiles) {
    const problems = SERVICE_NETWORK_APPS.flatMap((app) => {
      const reason = reasonToReplace(dir, app, undefined, now);
      return reason ? [`${app}: ${reason}`] : [];
    });
    if (problems.length > 0) {
      throw new Error(`the service network's certificates are the operator's own (no CA key here), and ${problems.join('; ')}: put new ca.crt, tls.crt and tls.key in place`);
    }
    return { ca: 'operator', apps: { gateway: 'kept', 'tail-sync': 'kept', 'webhook-dispatcher': 'kept' } };
  }
  const authority = haveCaKey ? await readAuthority(dir) : await makeAuthority(dir, now);
  const apps = {} as Record<ServiceNetworkApp, CertificateOutcome>;
  for (const app of SERVICE_NETWORK_APPS) {
    const reason = reasonToReplace(dir, app, authority.pem, now);
    if (reason) await issue(dir, app, authority, now);
    apps[app] = reason === undefined ? 'kept' : reason === 'missing' ? 'made' : 'renewed';
  }
  return { ca: haveCaKey ? 'kept' : 'made', apps };
}
