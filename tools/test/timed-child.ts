import { spawn, type ChildProcess, type IOType, type SpawnOptions, type StdioNull, type StdioPipe } from 'node:child_process';
import type { Stream } from 'node:stream';

type Stdio = IOType | StdioNull | StdioPipe | Stream | 'ipc' | number | null | undefined;

export interface TimedExit {
  /** The exit status; null when a signal ended the child. */
  status: number | null;
  /** CPU-seconds (user + system) of the child and every descendant it waited for; undefined when killed. */
  cpuSeconds: number | undefined;
}

// `times` prints the shell's own times, then its children's: `0m12.34s 0m1.20s`.
const CHILDREN_TIMES = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/;
// sh's `times` counts every process the child waited for (a `go build`'s compilers, a Jest
// run's workers), which no wall clock on a shared machine can say.
const TIMED = '"$@" 3>&-; status=$?; times >&3; exit $status';

/**
 * Runs a child through `sh`, which says at the end how much CPU the child and its waited-for
 * descendants used: what a tool build or a lane of the suite costs, however loaded the machine.
 * Started `detached`, the child leads a process group, which `stopGroup` ends with everything in it.
 */
export function spawnTimed(command: string, args: string[], options: SpawnOptions): { child: ChildProcess; exit: Promise<TimedExit> } {
  const stdio: Stdio[] = Array.isArray(options.stdio) ? options.stdio : [0, 1, 2].map(() => (options.stdio as IOType | undefined) ?? 'pipe');
  const child: ChildProcess = spawn('sh', ['-c', TIMED, 'sh', command, ...args], { ...options, stdio: [stdio[0], stdio[1], stdio[2], 'pipe'] });
  let times = '';
  child.stdio[3]?.on('data', (chunk: Buffer) => (times += chunk.toString()));
  const exit = new Promise<TimedExit>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code: number | null) => {
      const match = CHILDREN_TIMES.exec(times.trim().split('\n')[1] ?? '');
      const cpuSeconds = match ? Number(match[1]) * 60 + Number(match[2]) + Number(match[3]) * 60 + Number(match[4]) : undefined;
      resolve({ status: code, cpuSeconds });
    });
  });
  return { child, exit };
}

/** Ends a child started by spawnTimed, and every process it started. */
export function stopGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
