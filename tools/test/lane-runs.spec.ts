import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLane } from './lane-runs';
import type { LaneRun } from './suite-lanes';
import { suiteLanes } from './suite-lanes';

describe("a lane's Nx runs, one after another", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lane-runs-'));
    mkdirSync(join(dir, 'projects'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const lane = () => suiteLanes(['--projects=contracts,event-store,tools'], { dataDir: dir, kafkaPort: 19092, postgresPort: 15432 }).lanes[0];
  const installed = new Map([['python-receivers', Promise.resolve()]]);

  it('goes on with the runs after one that failed, and ends failed', async () => {
    const started: string[] = [];
    const outcome = await runLane(lane(), installed, async (run: LaneRun) => {
      started.push(run.projects);
      return { status: run.projects === 'contracts, event-store' ? 1 : 0, cpuSeconds: 2 };
    }, () => undefined);
    expect(started).toEqual(['contracts, event-store', 'tools']);
    expect(outcome).toEqual({ status: 1, cpuSeconds: 4, startedAt: expect.any(Number), notRun: [] });
  });

  it('does not start a run whose venv did not install, names it, and goes on', async () => {
    const failed = Promise.reject(new Error('the Python venv python-receivers (e2e/python/requirements.txt) did not install; its last lines:\nERROR: No matching distribution'));
    failed.catch(() => undefined);
    const started: string[] = [];
    const outcome = await runLane(lane(), new Map([['python-receivers', failed]]), async (run: LaneRun) => {
      started.push(run.projects);
      return { status: 0, cpuSeconds: 1 };
    }, () => undefined);
    expect(started).toEqual(['contracts, event-store']);
    expect(outcome.status).toBe(1);
    expect(outcome.notRun).toEqual([expect.stringMatching(/^lane projects did not run tools: the Python venv python-receivers .* did not install; its last lines:\nERROR: No matching distribution$/)]);
  });
});
