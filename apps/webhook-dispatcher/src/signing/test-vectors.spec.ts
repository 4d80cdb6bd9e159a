import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testVectorFiles } from './test-vectors.test-support';

const VECTORS_DIR = join(__dirname, '..', '..', '..', '..', 'libs', 'webhook-signing', 'vectors');
const SIGNED_FILES = ['ed25519.json', 'events.json', 'expiry.json', 'rotation.json', 'tampering.json', 'test-calls.json'];

describe('the shared test vectors, from the dispatcher’s signer', () => {
  const made = testVectorFiles();

  it('cover events, rotation, tampering, expiry, test calls and Ed25519 keys', () => {
    expect(Object.keys(made).sort()).toEqual(SIGNED_FILES);
    expect(readdirSync(VECTORS_DIR).filter((f) => SIGNED_FILES.includes(f)).sort()).toEqual(SIGNED_FILES);
  });

  it.each(SIGNED_FILES)('%s is exactly what the signer makes today (refresh with write-test-vectors.ts after a deliberate change)', (file) => {
    const committed = JSON.parse(readFileSync(join(VECTORS_DIR, file), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(made[file])));
    expect(committed.vectors.length).toBeGreaterThanOrEqual(3);
  });
});
