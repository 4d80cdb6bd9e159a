import { newServiceKeys } from '@tailsync/service-kit';
import { envFileValue } from '../stack/env-file-value';

/**
 * Prints a new Ed25519 pair as the two .env lines compose reads: SERVICE_SIGNING_KEY for the
 * gateway, SERVICE_VERIFY_KEY for tail-sync and the dispatcher.
 */
export async function serviceKeysCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log('usage: npm run cli -- service-keys >> .env   (a new key pair; replace both lines to rotate, then restart every app)');
    return 0;
  }
  for (const [name, value] of Object.entries(newServiceKeys())) console.log(`${name}=${envFileValue(value)}`);
  return 0;
}
