/**
 * `npm run cli -- grpc-certificates --dir <dir>`: the service network's CA and one certificate per
 * app (mutual TLS on gRPC), made where missing and issued again near their end. Compose's
 * grpc-certs one-shot runs it before the apps (docker-compose.yml).
 */
import { parseArgs } from 'node:util';
import { ensureServiceNetworkCertificates, SERVICE_NETWORK_APPS } from '../pki/grpc-certificates';

export const GRPC_CERTIFICATES_USAGE = `usage: npm run cli -- grpc-certificates --dir <dir>
  Makes, where missing, <dir>/ca/ca.crt and ca.key (the CA) and, for each of ${SERVICE_NETWORK_APPS.join(', ')},
  <dir>/<app>/ca.crt, tls.crt and tls.key: GRPC_TLS_CA_FILE, GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE of that
  app. The gateway's certificate names the gateway (a client certificate); each service's names the service.
  Files that are there stay; a certificate with less than 30 days left is issued again (the apps read the
  new files within seconds). Without <dir>/ca/ca.key the certificates are taken as the operator's own and
  only checked.`;

export async function grpcCertificatesCommand(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
  if (values.help) {
    out(GRPC_CERTIFICATES_USAGE);
    return 0;
  }
  if (!values.dir) {
    process.stderr.write(`${GRPC_CERTIFICATES_USAGE}\n`);
    return 2;
  }
  try {
    const report = await ensureServiceNetworkCertificates(values.dir);
    out(`grpc-certificates in ${values.dir}: CA ${report.ca}; ${SERVICE_NETWORK_APPS.map((app) => `${app} ${report.apps[app]}`).join(', ')}`);
    return 0;
  } catch (error) {
    process.stderr.write(`grpc-certificates: ${(error as Error).message}\n`);
    return 1;
  }
}

// compose's grpc-certs runs this file itself: the image holds this command, not the whole CLI.
if (process.argv[1] === __filename) {
  grpcCertificatesCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
