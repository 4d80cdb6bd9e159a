import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { PhaseTimes } from './phase-times';
import { venvDir } from './python-venv';
import { preparationsReady, PREPARATIONS_VARIABLE, startPreparations } from './test-preparations';
import type { TestVenv } from './test-venvs';
import { readWaits } from './test-waits';

describe('a test waiting for the Python venvs npm test installs beside the suites', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preparations-'));
  const file = join(dir, 'preparations.json');
  // This spec's waits are its own: under npm test they would otherwise land in its lane's closing lines.
  const saved = { preparations: process.env[PREPARATIONS_VARIABLE], data: process.env.TAILSYNC_TEST_DATA };
  beforeEach(() => {
    rmSync(file, { force: true });
    rmSync(join(dir, 'waits.jsonl'), { force: true });
    process.env[PREPARATIONS_VARIABLE] = file;
    process.env.TAILSYNC_TEST_DATA = dir;
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const [variable, value] of [[PREPARATIONS_VARIABLE, saved.preparations], ['TAILSYNC_TEST_DATA', saved.data]] as const) {
      if (value === undefined) delete process.env[variable];
      else process.env[variable] = value;
    }
  });

  it('waits until the installs are done, saying so once, and records the wait as its caller', async () => {
    const lines: string[] = [];
    setTimeout(() => writeFileSync(file, JSON.stringify({ ok: true })), 1_200);
    const t0 = Date.now();
    await preparationsReady('e2e/src/openapi.e2e.ts', (line) => lines.push(line));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_000);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('waiting for the Python venvs');
    expect(lines[1]).toMatch(/ready after [\d.]+ s of waiting/);
    expect(readWaits(dir)).toEqual([{ who: 'e2e/src/openapi.e2e.ts', what: 'the Python venvs', startedAt: expect.any(Number), seconds: expect.any(Number) }]);
  });

  it('fails with the failed install output', async () => {
    writeFileSync(file, JSON.stringify({ ok: false, error: 'pip install -r e2e/python/requirements.txt failed (exit 1): No matching distribution' }));
    await expect(preparationsReady('a test', () => undefined)).rejects.toThrow(/could not install what the tests need: pip install .* No matching distribution/);
  });

  it('does not wait outside npm test', async () => {
    delete process.env[PREPARATIONS_VARIABLE];
    const lines: string[] = [];
    await preparationsReady('a test', (line) => lines.push(line));
    expect(lines).toEqual([]);
  });
});

describe('the Python venvs npm test installs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preparations-'));
  const broken: TestVenv = { name: `broken-${process.pid}`, requirements: relative(REPO_ROOT, join(dir, 'requirements.txt')), variable: 'BROKEN_PYTHON', executable: 'python' };
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(venvDir(broken.name), { recursive: true, force: true });
  });

  it("installs only those given, passes their executables' paths at once, and fails one by its name with pip's last lines", async () => {
    writeFileSync(join(dir, 'requirements.txt'), './no-such-package-here\n');
    const prepared = startPreparations(join(dir, 'preparations.json'), [broken], new PhaseTimes(), () => undefined);
    expect(prepared.env.BROKEN_PYTHON).toBe(join(venvDir(broken.name), 'bin', 'python'));
    expect(prepared.env).not.toHaveProperty('SCHEMATHESIS_BIN');
    expect([...prepared.venvs.keys()]).toEqual([broken.name]);
    await expect(prepared.venvs.get(broken.name)).rejects.toThrow(new RegExp(`the Python venv ${broken.name} \\(.*requirements\\.txt\\) did not install; its last lines:\\n(.*\\n)*.*no-such-package-here`));
    await expect(prepared.done).rejects.toThrow(`the Python venv ${broken.name}`);
    const before = process.env[PREPARATIONS_VARIABLE];
    process.env[PREPARATIONS_VARIABLE] = join(dir, 'preparations.json');
    try {
      await expect(preparationsReady('a test', () => undefined)).rejects.toThrow(`could not install what the tests need: the Python venv ${broken.name}`);
    } finally {
      if (before === undefined) delete process.env[PREPARATIONS_VARIABLE];
      else process.env[PREPARATIONS_VARIABLE] = before;
    }
  }, 120_000);
});
