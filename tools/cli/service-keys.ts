import { createPublicKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newServiceKeys, serviceKeyId } from '@tailsync/service-kit';
import { envFileValue } from '../stack/env-file-value';

const USAGE = [
  'usage: npm run cli -- service-keys --out <dir>   writes the compose secret files service_signing_key and service_verify_key',
  '       npm run cli -- service-keys >> .env       prints SERVICE_SIGNING_KEY= and SERVICE_VERIFY_KEY= lines instead',
  'A new Ed25519 pair each time, named by its kid (the RFC 7638 thumbprint of the public key).',
  'To rotate without a failed call: append the new SERVICE_VERIFY_KEY to the old one on every service copy',
  '(restart them one by one), then give the gateway copies the new SERVICE_SIGNING_KEY, then drop the old public key.',
].join('\n');

/**
 * A new Ed25519 pair: SERVICE_SIGNING_KEY for the gateway, SERVICE_VERIFY_KEY for tail-sync and
 * the dispatcher; as compose's secret files, or as .env lines.
 */
export async function serviceKeysCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  const keys = newServiceKeys();
  const kid = serviceKeyId(createPublicKey(keys.SERVICE_VERIFY_KEY));
  const out = argv.indexOf('--out');
  if (out === -1) {
    console.log(`# service key pair, kid ${kid}`);
    for (const [name, value] of Object.entries(keys)) console.log(`${name}=${envFileValue(value)}`);
    return 0;
  }
  const dir = argv[out + 1];
  if (!dir) {
    console.error(USAGE);
    return 2;
  }
  // Readable by the containers' users, as compose mounts them; the directory is what keeps them private.
  writeFileSync(join(dir, 'service_signing_key'), keys.SERVICE_SIGNING_KEY, { mode: 0o644 });
  writeFileSync(join(dir, 'service_verify_key'), keys.SERVICE_VERIFY_KEY, { mode: 0o644 });
  console.log(`wrote ${join(dir, 'service_signing_key')} and ${join(dir, 'service_verify_key')} (kid ${kid})`);
  return 0;
}
