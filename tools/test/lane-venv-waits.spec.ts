import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { venvsFor } from './lane-venv-waits';
import { suiteLanes, type SuiteLane } from './suite-lanes';
import { readWaits } from './test-waits';

describe("the other lane's wait for the Python venvs of its next run", () => {
  let dir: string;
  let lane: SuiteLane;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lane-venvs-'));
    [lane] = suiteLanes(['--projects=gateway,webhook-dispatcher'], { dataDir: dir, kafkaPort: 19092, postgresPort: 15432 }).lanes;
    mkdirSync(lane.dataDir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const [first, dispatcher] = [0, 1];

  it('starts the projects that run no Python at once, while a venv is still installing', async () => {
    const lines: string[] = [];
    const installs = new Map([['python-receivers', new Promise<void>(() => undefined)]]);
    await venvsFor(lane, lane.nxRuns[first], installs, (line) => lines.push(line));
    expect(lines).toEqual([]);
  });

  it('holds a project back until its own venv is installed, saying so in one line, and records the wait', async () => {
    const lines: string[] = [];
    const installs = new Map([
      ['python-receivers', new Promise<void>((resolve) => setTimeout(resolve, 1_000))],
      ['schemathesis', new Promise<void>(() => undefined)],
    ]);
    const t0 = Date.now();
    await venvsFor(lane, lane.nxRuns[dispatcher], installs, (line) => lines.push(line));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(lines).toEqual([
      'lane projects: webhook-dispatcher waits for the Python venv python-receivers (still installing)',
      expect.stringMatching(/^lane projects: the Python venv python-receivers ready for webhook-dispatcher after \d+\.\d s of waiting$/),
    ]);
    expect(readWaits(lane.dataDir)).toEqual([{ who: 'webhook-dispatcher', what: 'the Python venv python-receivers', startedAt: expect.any(Number), seconds: expect.any(Number) }]);
  });

  it('says nothing and records no wait when the venv is already installed', async () => {
    const lines: string[] = [];
    await venvsFor(lane, lane.nxRuns[dispatcher], new Map([['python-receivers', Promise.resolve()]]), (line) => lines.push(line));
    expect(lines).toEqual([]);
    expect(readWaits(lane.dataDir)).toEqual([]);
  });

  it('fails the project by the name of the venv that did not install, with its last lines', async () => {
    const failed = Promise.reject(new Error('the Python venv python-receivers (e2e/python/requirements.txt) did not install; its last lines:\nERROR: No matching distribution found for standardwebhooks==9.9'));
    failed.catch(() => undefined);
    await expect(venvsFor(lane, lane.nxRuns[dispatcher], new Map([['python-receivers', failed]]), () => undefined)).rejects.toThrow(
      /python-receivers .* did not install; its last lines:\nERROR: No matching distribution/,
    );
  });
});
