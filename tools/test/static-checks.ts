/**
 * The static checks of `npm test` (the Nx project graph, then `tsc --noEmit`, then ESLint), run
 * beside the suites: a type error or a module-boundary violation fails the run all the same. They
 * run at a lower priority than the lanes (whose tests that measure time are the first to fail when
 * CPU runs short) until the suites are done, when nothing is left to yield to (`raise`); their
 * output is kept, not interleaved with Jest's, for the run's end.
 */
import { dirname, join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { raiseGroupPriority } from '../process/group-priority';
import type { PhaseTimes } from './phase-times';
import { spawnTimed, stopGroup } from './timed-child';

/** Below the lanes' priority: the checks take the CPU the suites leave. */
export const STATIC_CHECKS_NICENESS = 10;

export interface StaticCheckOutcome {
  name: string;
  passed: boolean;
  /** What the check printed (stdout and stderr, in order). */
  output: string;
  cpuSeconds: number;
}

/** A check's name, and the arguments of the `node` that runs it. */
export type CheckCommand = [string, string[]];

/** One command line per check, in the order they run (the boundary rule reads the project graph). */
function checkCommands(): CheckCommand[] {
  return [
    // The module-boundary rule reads Nx's project graph; on a fresh clone it must be built first,
    // or the rule silently checks nothing.
    ['project graph', [require.resolve('nx/bin/nx'), 'show', 'projects']],
    ['typecheck', [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.base.json', '--noEmit']],
    ['lint', [join(dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js'), 'apps', 'libs', 'e2e', 'tools', 'bench', '--max-warnings=0']],
  ];
}

/** The checks, started one after another in `cwd`, each timed as a phase. */
export class StaticChecks {
  /** Every outcome, failed or not. */
  readonly outcomes: Promise<StaticCheckOutcome[]>;
  private niceness = STATIC_CHECKS_NICENESS;
  private running: ChildProcess | undefined;
  private stopped = false;

  constructor(cwd: string, phases: PhaseTimes, commands: CheckCommand[] = checkCommands()) {
    this.outcomes = this.runInTurn(cwd, phases, commands);
  }

  /** From now on at normal priority, the running check too (lowering a niceness needs root). */
  raise(): void {
    this.niceness = 0;
    if (this.running?.pid !== undefined) raiseGroupPriority(this.running.pid, 0);
  }

  /** Ends the running check and starts no other (the run stopped early; a no-op once they are done). */
  stop(): void {
    this.stopped = true;
    if (this.running) stopGroup(this.running);
  }

  private async runInTurn(cwd: string, phases: PhaseTimes, commands: CheckCommand[]): Promise<StaticCheckOutcome[]> {
    const outcomes: StaticCheckOutcome[] = [];
    for (const [name, args] of commands) {
      if (this.stopped) break;
      outcomes.push(await phases.time(name, () => runCheck(name, args, cwd, this.niceness, (child) => (this.running = child))));
      this.running = undefined;
    }
    return outcomes;
  }
}

/** One check: `node` with `args` at `niceness`, leading a process group of its own, its output kept. */
export async function runCheck(name: string, args: string[], cwd: string, niceness: number, started: (child: ChildProcess) => void = () => undefined): Promise<StaticCheckOutcome> {
  const { child, exit } = spawnTimed('nice', ['-n', String(niceness), process.execPath, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NX_DAEMON: 'false', FORCE_COLOR: '0' },
    detached: true,
  });
  started(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const { status, cpuSeconds } = await exit;
  return { name, passed: status === 0, output, cpuSeconds: cpuSeconds ?? 0 };
}

/** The run's closing lines about the checks: one per check, and a failed check's whole output. */
export function staticChecksReport(outcomes: StaticCheckOutcome[], phases: PhaseTimes): string[] {
  return outcomes.flatMap(({ name, passed, output, cpuSeconds }) => {
    const line = `${name} ${passed ? 'passed' : 'FAILED'} in ${phases.seconds(name).toFixed(1)} s, ${cpuSeconds.toFixed(1)} CPU-seconds (beside the suites from nice ${STATIC_CHECKS_NICENESS})`;
    return passed ? [line] : [`${line}; its output:`, output.trimEnd()];
  });
}
