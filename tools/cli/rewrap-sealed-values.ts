import { runAppScript } from './app-script';

/** Runs the dispatcher's own rewrap entry point: it alone may hold the sealing keys. */
export async function rewrapSealedValuesCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log(
      'usage: npm run cli -- rewrap-sealed-values   (DATABASE_URL, WEBHOOK_SECRET_KEY as for webhook-dispatcher; defaults to the local stack)\n' +
        'Seals every stored shared secret and signing key again under the first key of WEBHOOK_SECRET_KEY; exits 1 while any value is left under another key.',
    );
    return 0;
  }
  return runAppScript('webhook-dispatcher', 'rewrap-sealed-values');
}
