import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GrpcTlsFiles } from './grpc-tls';

/** CAs and the certificates they issue, made with openssl as an operator would, under `dir`. */
export class TestPki {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  private openssl(args: string[]): void {
    execFileSync('openssl', args, { cwd: this.dir, stdio: ['ignore', 'ignore', 'pipe'] });
  }

  /** A self-signed CA as `<name>.pem` and `<name>.key`. */
  ca(name: string): void {
    this.openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', `/CN=${name}`]);
  }

  /** A certificate for `cn` (also its DNS name) issued by `ca`, as `<file>.pem` and `<file>.key`. */
  issue(ca: string, cn: string, file = `${ca}-${cn}`): { certFile: string; keyFile: string } {
    this.openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${file}.key`, '-out', `${file}.csr`, '-subj', `/CN=${cn}`]);
    writeFileSync(join(this.dir, `${file}.ext`), `subjectAltName=DNS:${cn}\n`);
    this.openssl(['x509', '-req', '-in', `${file}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${file}.pem`, '-days', '2', '-extfile', `${file}.ext`]);
    return { certFile: join(this.dir, `${file}.pem`), keyFile: join(this.dir, `${file}.key`) };
  }

  /** The GRPC_TLS_* files of a process named `cn`, its certificate issued by `ca`. */
  files(ca: string, cn: string): GrpcTlsFiles {
    return { caFile: join(this.dir, `${ca}.pem`), ...this.issue(ca, cn) };
  }
}

/** The settings that give a process these files. */
export const grpcTlsSettings = (files: GrpcTlsFiles) => ({ GRPC_TLS_CA_FILE: files.caFile, GRPC_TLS_CERT_FILE: files.certFile, GRPC_TLS_KEY_FILE: files.keyFile });
