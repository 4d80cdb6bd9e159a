/**
 * Writes the shared test vectors (libs/webhook-signing/vectors/*.json) from the dispatcher's signer:
 * `node tools/run.js apps/webhook-dispatcher/src/signing/write-test-vectors.ts`. Run it only after a
 * deliberate change to how callbacks are signed: both receiver packages are tested against them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testVectorFiles } from './test-vectors.test-support';

export const VECTORS_DIR = join(__dirname, '..', '..', '..', '..', 'libs', 'webhook-signing', 'vectors');

for (const [name, file] of Object.entries(testVectorFiles())) {
  writeFileSync(join(VECTORS_DIR, name), `${JSON.stringify(file, null, 2)}\n`);
  process.stdout.write(`${name}: ${file.vectors.length} vectors\n`);
}
