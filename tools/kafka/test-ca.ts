/**
 * A CA made for one run and a broker certificate it signs (for 127.0.0.1 and localhost), with
 * `openssl`: what the local broker serves on its SASL_SSL listener when asked for TLS.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrokerTls } from './kraft-config';

const DAYS = '30';

/** Makes (or keeps, while its files exist) the CA and the broker's keystore under `dir`. */
export function testCertificateAuthority(dir: string): BrokerTls {
  const tls: BrokerTls = { caFile: join(dir, 'ca.pem'), keystoreFile: join(dir, 'broker-keystore.pem') };
  if (existsSync(tls.caFile) && existsSync(tls.keystoreFile)) return tls;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const openssl = (args: string[]) => {
    try {
      execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const e = error as NodeJS.ErrnoException & { stderr?: Buffer };
      throw new Error(
        e.code === 'ENOENT'
          ? 'Kafka with TLS needs `openssl` on PATH to make its test CA (apt-get install -y openssl)'
          : `openssl ${args[0]} failed: ${e.stderr?.toString().trim() ?? e.message}`,
      );
    }
  };
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', DAYS, '-subj', '/CN=tailsync test CA']);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'broker.key', '-out', 'broker.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(dir, 'broker.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(['x509', '-req', '-in', 'broker.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'broker.pem', '-days', DAYS, '-extfile', 'broker.ext']);
  // Kafka's PEM keystore: the unencrypted PKCS#8 key, then the chain.
  writeFileSync(tls.keystoreFile, readFileSync(join(dir, 'broker.key'), 'utf8') + readFileSync(join(dir, 'broker.pem'), 'utf8'), { mode: 0o600 });
  return tls;
}
