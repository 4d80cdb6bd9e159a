import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

describe('npm run cli -- service-keys --out <dir>', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'service-keys-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = () => spawnSync(process.execPath, [join(ROOT, 'tools', 'run.js'), join(ROOT, 'tools', 'cli', 'main.ts'), 'service-keys', '--out', dir], { cwd: ROOT, encoding: 'utf8' });

  it('writes the private key for its owner only (0600), the public key readable, a working Ed25519 pair', () => {
    const ran = run();
    expect(ran.status).toBe(0);
    expect(statSync(join(dir, 'service_signing_key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'service_verify_key')).mode & 0o777).toBe(0o644);
    const privateKey = createPrivateKey(readFileSync(join(dir, 'service_signing_key'), 'utf8'));
    expect(privateKey.asymmetricKeyType).toBe('ed25519');
    expect(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' })).toBe(readFileSync(join(dir, 'service_verify_key'), 'utf8'));
    expect(ran.stdout).not.toContain('PRIVATE KEY');
  });

  it('makes a private key file that was there before private too', () => {
    writeFileSync(join(dir, 'service_signing_key'), 'old', { mode: 0o644 });
    expect(run().status).toBe(0);
    expect(statSync(join(dir, 'service_signing_key')).mode & 0o777).toBe(0o600);
  });
});
