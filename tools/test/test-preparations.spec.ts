import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preparationsReady, PREPARATIONS_VARIABLE } from './test-preparations';

describe('a test waiting for the Python venvs npm test installs beside the suites', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preparations-'));
  const file = join(dir, 'preparations.json');
  const before = process.env[PREPARATIONS_VARIABLE];
  beforeEach(() => {
    rmSync(file, { force: true });
    process.env[PREPARATIONS_VARIABLE] = file;
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    if (before === undefined) delete process.env[PREPARATIONS_VARIABLE];
    else process.env[PREPARATIONS_VARIABLE] = before;
  });

  it('waits until the installs are done, saying so once', async () => {
    const lines: string[] = [];
    setTimeout(() => writeFileSync(file, JSON.stringify({ ok: true })), 1_200);
    const t0 = Date.now();
    await preparationsReady((line) => lines.push(line));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_000);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('waiting for the Python venvs');
    expect(lines[1]).toMatch(/ready after [\d.]+ s of waiting/);
  });

  it('fails with the failed install output', async () => {
    writeFileSync(file, JSON.stringify({ ok: false, error: 'pip install -r e2e/python/requirements.txt failed (exit 1): No matching distribution' }));
    await expect(preparationsReady(() => undefined)).rejects.toThrow(/could not install what the tests need: pip install .* No matching distribution/);
  });

  it('does not wait outside npm test', async () => {
    delete process.env[PREPARATIONS_VARIABLE];
    const lines: string[] = [];
    await preparationsReady((line) => lines.push(line));
    expect(lines).toEqual([]);
  });
});
