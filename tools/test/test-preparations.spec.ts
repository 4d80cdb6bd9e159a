import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { PhaseTimes } from './phase-times';
import { venvDir } from './python-venv';
import { PREPARATIONS_VARIABLE, startPreparations, venvsReady } from './test-preparations';
import type { TestVenv } from './test-venvs';
import { readWaits } from './test-waits';

/** Sets process.env for a spec's tests, and puts back what was there after them. */
function withVariables(values: () => Record<string, string>): void {
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    for (const [variable, value] of Object.entries(values())) {
      saved[variable] ??= process.env[variable];
      process.env[variable] = value;
    }
  });
  afterAll(() => {
    for (const [variable, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[variable];
      else process.env[variable] = value;
    }
  });
}

describe('a test waiting for the Python venvs npm test installs beside the suites', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preparations-'));
  const preparations = join(dir, 'preparations');
  // This spec's waits are its own: under npm test they would otherwise land in its lane's closing lines.
  withVariables(() => ({ [PREPARATIONS_VARIABLE]: preparations, TAILSYNC_TEST_DATA: dir }));
  beforeEach(() => {
    rmSync(preparations, { recursive: true, force: true });
    rmSync(join(dir, 'waits.jsonl'), { force: true });
    mkdirSync(preparations);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const installed = (venv: string, outcome: object) => writeFileSync(join(preparations, `${venv}.json`), JSON.stringify(outcome));

  it('waits until its own venvs are installed, saying so once, and records the wait as its caller', async () => {
    const lines: string[] = [];
    setTimeout(() => installed('schemathesis', { ok: true }), 1_200);
    const t0 = Date.now();
    await venvsReady(['schemathesis'], 'e2e/src/openapi.e2e.ts', (line) => lines.push(line));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_000);
    expect(lines).toEqual([
      `[tests] e2e/src/openapi.e2e.ts waits for the Python venv schemathesis (npm test is installing: ${preparations})`,
      expect.stringMatching(/^\[tests\] the Python venv schemathesis ready for e2e\/src\/openapi\.e2e\.ts after \d+\.\d s of waiting$/),
    ]);
    expect(readWaits(dir)).toEqual([{ who: 'e2e/src/openapi.e2e.ts', what: 'the Python venv schemathesis', startedAt: expect.any(Number), seconds: expect.any(Number) }]);
  });

  it('does not wait for a venv other than its own, still installing', async () => {
    installed('kafka-consumer', { ok: true });
    const lines: string[] = [];
    await venvsReady(['kafka-consumer'], 'e2e/src/independent-consumer.e2e.ts', (line) => lines.push(line));
    expect(lines).toEqual([]);
    expect(readWaits(dir)).toEqual([]);
  });

  it('fails with the failed install output', async () => {
    installed('python-receivers', { ok: false, error: 'pip install -r e2e/python/requirements.txt failed (exit 1): No matching distribution' });
    await expect(venvsReady(['python-receivers'], 'e2e/src/webhooks-python.e2e.ts', () => undefined)).rejects.toThrow(
      /could not install what e2e\/src\/webhooks-python\.e2e\.ts needs: pip install .* No matching distribution/,
    );
  });

  it('does not wait outside npm test', async () => {
    delete process.env[PREPARATIONS_VARIABLE];
    const lines: string[] = [];
    await venvsReady(['schemathesis'], 'a test', (line) => lines.push(line));
    expect(lines).toEqual([]);
  });
});

describe('the Python venvs npm test installs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preparations-'));
  const preparations = join(dir, 'preparations');
  withVariables(() => ({ [PREPARATIONS_VARIABLE]: preparations, TAILSYNC_TEST_DATA: dir }));
  const broken: TestVenv = { name: `broken-${process.pid}`, requirements: relative(REPO_ROOT, join(dir, 'requirements.txt')), variable: 'BROKEN_PYTHON', executable: 'python' };
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(venvDir(broken.name), { recursive: true, force: true });
  });

  it("installs only those given, passes their executables' paths at once, and fails one by its name with pip's last lines", async () => {
    writeFileSync(join(dir, 'requirements.txt'), './no-such-package-here\n');
    const prepared = startPreparations(preparations, [broken], new PhaseTimes(), () => undefined);
    expect(prepared.env.BROKEN_PYTHON).toBe(join(venvDir(broken.name), 'bin', 'python'));
    expect(prepared.env).not.toHaveProperty('SCHEMATHESIS_BIN');
    expect([...prepared.venvs.keys()]).toEqual([broken.name]);
    await expect(prepared.venvs.get(broken.name)).rejects.toThrow(new RegExp(`the Python venv ${broken.name} \\(.*requirements\\.txt\\) did not install; its last lines:\\n(.*\\n)*.*no-such-package-here`));
    await expect(prepared.done).rejects.toThrow(`the Python venv ${broken.name}`);
    expect(prepared.env[PREPARATIONS_VARIABLE]).toBe(preparations);
    await expect(venvsReady([broken.name], 'a test', () => undefined)).rejects.toThrow(`could not install what a test needs: the Python venv ${broken.name}`);
  }, 120_000);
});
