/**
 * What the tests and the lanes waited for (a tool's build, a Python venv's install), one JSON line
 * each under the lane's data directory: the runner's closing lines say how long, and which waits
 * came before a lane's first test.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Under a lane's data directory (its TAILSYNC_TEST_DATA). */
export const WAITS_FILE = 'waits.jsonl';

export interface Wait {
  /** Who waited: `tests` (for a tool), an e2e file (for its venvs), or the projects a lane held back. */
  who: string;
  /** What for: a tool's name, or a Python venv. */
  what: string;
  /** When the wait began (ms since the epoch). */
  startedAt: number;
  seconds: number;
}

/** Appends a wait for the run's closing lines; outside `npm test` (no data directory) there is no one to tell. */
export function recordWait(dataDir: string | undefined, wait: Wait): void {
  if (dataDir) appendFileSync(join(dataDir, WAITS_FILE), `${JSON.stringify(wait)}\n`);
}

export function readWaits(dataDir: string): Wait[] {
  const file = join(dataDir, WAITS_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Wait);
}
