/**
 * Seals every stored shared secret and signing key again under the first key of
 * `WEBHOOK_SECRET_KEY` (`npm run cli -- rewrap-sealed-values`, or in the dispatcher's container:
 * `node tools/run.js apps/webhook-dispatcher/src/cli/rewrap-sealed-values.ts`). Safe while the
 * dispatcher runs; run it after every copy holds the new key, and drop the old key only once it
 * reports nothing left.
 */
import 'reflect-metadata';
import { createPool, loadConfig } from '@tailsync/service-kit';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { SecretBox } from '../sealing/secret-box';
import { rewrapSealedValues } from '../subscriptions/sealed-values-rewrap';

async function main(): Promise<number> {
  const config = loadConfig(WebhookDispatcherConfig);
  const pool = createPool(config.DATABASE_URL, 2);
  try {
    const report = await rewrapSealedValues(pool, new SecretBox(config.WEBHOOK_SECRET_KEY));
    process.stdout.write(`rewrapped ${report.rewrapped} sealed values under key ${report.sealingKeyId}\n`);
    for (const u of report.unreadable) {
      process.stderr.write(`cannot unseal the ${u.what} of domain ${u.domain}${u.kid ? ` (key ${u.kid})` : ''}: ${u.reason}\n`);
    }
    if (report.changedMeanwhile > 0) process.stderr.write(`${report.changedMeanwhile} values were saved anew meanwhile: run the command again\n`);
    if (report.unreadable.length > 0) {
      process.stderr.write(`${report.unreadable.length} values are under no key WEBHOOK_SECRET_KEY holds: keep the old key until they are rewrapped or saved again\n`);
    }
    return report.unreadable.length === 0 && report.changedMeanwhile === 0 ? 0 : 1;
  } finally {
    await pool.end();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`rewrap-sealed-values failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
