import { createPublicKey } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newServiceKeys, serviceKeyId } from '@tailsync/service-kit';
import { envFileValue } from '../stack/env-file-value';

const USAGE = [
  'usage: npm run cli -- service-keys --out <dir>   writes the compose secret files service_signing_key and service_verify_key',
  '       npm run cli -- service-keys >> .env       prints SERVICE_SIGNING_KEY= and SERVICE_VERIFY_KEY= lines instead',
  'A new Ed25519 pair each time, named by its kid (the RFC 7638 thumbprint of the public key).',
  'To rotate without a restart or a failed call (the apps read both files again within 5 s, written in place):',
  'append the new public key to service_verify_key, then write the new private key over service_signing_key,',
  'then remove the old public key; each step logged by every copy before the next (docs/operations.md).',
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
  // The private key is for its owner alone, whatever the directory allows; the public one may be read by all.
  // `mode` applies to a new file only: chmod makes an existing one private too.
  const signing = join(dir, 'service_signing_key');
  writeFileSync(signing, keys.SERVICE_SIGNING_KEY, { mode: 0o600 });
  chmodSync(signing, 0o600);
  writeFileSync(join(dir, 'service_verify_key'), keys.SERVICE_VERIFY_KEY, { mode: 0o644 });
  console.log(`wrote ${signing} (mode 0600: the gateway's container reads it as uid 1000, so chown it to 1000 unless that is you) and ${join(dir, 'service_verify_key')} (kid ${kid})`);
  return 0;
}
