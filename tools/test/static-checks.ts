/**
 * The static checks of `npm test` (the Nx project graph, then `tsc --noEmit`, then ESLint), run
 * beside the suites: a type error or a module-boundary violation fails the run all the same. They
 * run at a lower priority than the lanes (whose tests that measure time are the first to fail when
 * CPU runs short) and their output is kept, not interleaved with Jest's, for the run's end.
 */
import { dirname, join } from 'node:path';
import type { PhaseTimes } from './phase-times';
import { spawnTimed } from './timed-child';

/** Below the lanes' priority: the checks take the CPU the suites leave. */
export const STATIC_CHECKS_NICENESS = 10;

export interface StaticCheckOutcome {
  name: string;
  passed: boolean;
  /** What the check printed (stdout and stderr, in order). */
  output: string;
  cpuSeconds: number;
}

/** One command line per check, in the order they run (the boundary rule reads the project graph). */
function checkCommands(): [string, string[]][] {
  return [
    // The module-boundary rule reads Nx's project graph; on a fresh clone it must be built first,
    // or the rule silently checks nothing.
    ['project graph', [require.resolve('nx/bin/nx'), 'show', 'projects']],
    ['typecheck', [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.base.json', '--noEmit']],
    ['lint', [join(dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js'), 'apps', 'libs', 'e2e', 'tools', 'bench', '--max-warnings=0']],
  ];
}

/** Runs the checks one after another in `cwd`, each timed as a phase; every outcome, failed or not. */
export async function runStaticChecks(cwd: string, phases: PhaseTimes): Promise<StaticCheckOutcome[]> {
  const outcomes: StaticCheckOutcome[] = [];
  for (const [name, args] of checkCommands()) {
    outcomes.push(await phases.time(name, () => runCheck(name, args, cwd)));
  }
  return outcomes;
}

/** One check: `node` with `args`, niced, its output kept. */
export async function runCheck(name: string, args: string[], cwd: string): Promise<StaticCheckOutcome> {
  const { child, exit } = spawnTimed('nice', ['-n', String(STATIC_CHECKS_NICENESS), process.execPath, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NX_DAEMON: 'false', FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const { status, cpuSeconds } = await exit;
  return { name, passed: status === 0, output, cpuSeconds: cpuSeconds ?? 0 };
}

/** The run's closing lines about the checks: one per check, and a failed check's whole output. */
export function staticChecksReport(outcomes: StaticCheckOutcome[], phases: PhaseTimes): string[] {
  return outcomes.flatMap(({ name, passed, output, cpuSeconds }) => {
    const line = `${name} ${passed ? 'passed' : 'FAILED'} in ${phases.seconds(name).toFixed(1)} s, ${cpuSeconds.toFixed(1)} CPU-seconds (beside the suites, nice ${STATIC_CHECKS_NICENESS})`;
    return passed ? [line] : [`${line}; its output:`, output.trimEnd()];
  });
}
