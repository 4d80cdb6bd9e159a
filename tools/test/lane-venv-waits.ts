/**
 * A lane's wait, before one of its Nx runs, for the Python venvs that run's projects use: none
 * when they are installed; otherwise one line while it waits, and the wait recorded for the run's
 * closing lines. A venv that failed to install stops that run alone, by name, with pip's last lines.
 */
import type { LaneRun, SuiteLane } from './suite-lanes';
import { recordWait } from './test-waits';

/** Resolves once `run`'s venvs are installed; rejects with the failed installs' names and last lines. */
export async function venvsFor(lane: SuiteLane, run: LaneRun, installs: ReadonlyMap<string, Promise<void>>, log: (line: string) => void): Promise<void> {
  if (run.waitsFor.length === 0) return;
  const pending = Promise.allSettled(run.waitsFor.map((name) => installs.get(name) ?? Promise.resolve()));
  // A settled install's outcome is known before the next turn of the event loop.
  const installed = await Promise.race([pending.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
  const what = `the Python venv${run.waitsFor.length > 1 ? 's' : ''} ${run.waitsFor.join(', ')}`;
  const t0 = Date.now();
  if (!installed) log(`lane ${lane.name}: ${run.projects} waits for ${what} (still installing)`);
  const outcomes = await pending;
  if (!installed) {
    const seconds = (Date.now() - t0) / 1000;
    log(`lane ${lane.name}: ${what} ready for ${run.projects} after ${seconds.toFixed(1)} s of waiting`);
    recordWait(lane.dataDir, { who: run.projects, what, startedAt: t0, seconds });
  }
  const failed = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed.length > 0) throw new Error(failed.map(({ reason }) => (reason instanceof Error ? reason.message : String(reason))).join('\n'));
}
