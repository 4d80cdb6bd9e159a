import { readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { commandLineOf, isAlive, parentOf, waitForExit } from './process-table';
import { StopPolicy } from './stop-child';

/** A server the supervisor runs, as a later run finds it again: by its pid file. */
export interface ProcessRecord {
  /** For messages, e.g. "Kafka broker on 127.0.0.1:9092". */
  name: string;
  /** Holds the pid while the process runs. */
  pidFile: string;
  /** Parts of its command line that tell it from an unrelated process that reused the pid. */
  identity: string[];
  stop: StopPolicy;
}

const KILL_WAIT_MS = 5_000;

/**
 * A run killed with SIGKILL (or crashed) leaves its server running, holding the ports and the
 * data directory. Stops it if it is orphaned; if the Node process that started it still runs, it
 * belongs to another run: fails with a message that says so.
 */
export async function stopStaleProcess(record: ProcessRecord): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(record.pidFile, 'utf8').split('\n')[0].trim());
  } catch {
    return;
  }
  const commandLine = pid > 0 ? commandLineOf(pid) : undefined;
  if (commandLine === undefined || !record.identity.every((part) => commandLine.includes(part))) {
    rmSync(record.pidFile, { force: true });
    return;
  }
  // Orphans are re-parented to init (pid 1) or a subreaper such as `systemd --user`.
  const parent = parentOf(pid);
  if (parent && parent.pid !== 1 && parent.comm.includes('node')) {
    throw new Error(
      `Cannot start ${record.name}: it is already running on ${dirname(record.pidFile)} (pid ${pid}, started by ${parent.comm} pid ${parent.pid}). ` +
        'Stop that run first, or use another data directory.',
    );
  }
  process.kill(pid, record.stop.signal);
  await waitForExit(pid, record.stop.graceMs);
  if (isAlive(pid)) {
    process.kill(pid, 'SIGKILL');
    await waitForExit(pid, KILL_WAIT_MS);
  }
  rmSync(record.pidFile, { force: true });
}
