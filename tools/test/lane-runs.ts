/**
 * One lane's Nx runs, one after another, each once the Python venvs its projects use are
 * installed (in the e2e lane each file that runs a venv waits for its own). A run whose venv
 * failed is not started, and a run that fails does not stop the lane: the runs after it still
 * run, so the closing lines count every project's tests and the lane's status is still a failure.
 */
import { venvsFor } from './lane-venv-waits';
import type { LaneRun, SuiteLane } from './suite-lanes';

export interface LaneOutcome {
  status: number | null;
  /** What its Jest runs used (not its servers). */
  cpuSeconds: number;
  startedAt: number;
  /** One line per Nx run it could not start (a venv that did not install). */
  notRun: string[];
}

/** Starts one Nx run of the lane, resolving to its exit status and CPU-seconds. */
export type StartNxRun = (run: LaneRun) => Promise<{ status: number | null; cpuSeconds: number | undefined }>;

export async function runLane(lane: SuiteLane, installs: ReadonlyMap<string, Promise<void>>, startNxRun: StartNxRun, log: (line: string) => void): Promise<LaneOutcome> {
  const outcome: LaneOutcome = { status: 0, cpuSeconds: 0, startedAt: Date.now(), notRun: [] };
  for (const run of lane.nxRuns) {
    try {
      await venvsFor(lane, run, installs, log);
    } catch (error) {
      // Said in full with the closing lines, which are what a reader of the run looks at.
      outcome.notRun.push(`lane ${lane.name} did not run ${run.projects}: ${error instanceof Error ? error.message : String(error)}`);
      log(`${outcome.notRun.at(-1)!.split('\n')[0]} (the run's closing lines say more)`);
      outcome.status = 1;
      continue;
    }
    const { status, cpuSeconds } = await startNxRun(run);
    outcome.cpuSeconds += cpuSeconds ?? 0;
    if (status !== 0) outcome.status = status;
  }
  return outcome;
}
