/**
 * The runner's builds of tools from Go source, started when `npm test` starts and left to run
 * beside the static checks and the suites; the tests that need a tool wait for it
 * (built-tools.ts). The e2e lane's tool (Jaeger) builds first, at normal priority: that lane is
 * the run's longest, its tracing test comes near its end, and a niced build beside two lanes
 * finished long after it (1,146 s, 271 s of waiting, on a new machine). The others build after
 * it at a lower priority, taking the CPU the suite leaves: their tests end the other, shorter lane,
 * and a test that starts waiting for one raises it to normal priority (go-tool-build.ts).
 */
import { buildGoTool, stopBuilds, type BuildOutcome } from './go-tool-build';
import { GO_TOOLS, TOOLS_BY_PROJECT, type GoTool } from './go-tools';

const BACKGROUND_NICENESS = 10;
/** The lane whose end is the run's end: the tools its tests need build at normal priority. */
const CRITICAL_PROJECT = 'e2e';
const criticalTools = new Set<string>(TOOLS_BY_PROJECT[CRITICAL_PROJECT]);

/** How nice a tool's build runs: 0 for the tools the e2e lane waits for, else BACKGROUND_NICENESS. */
export function buildNiceness(tool: GoTool): number {
  return criticalTools.has(tool.name) ? 0 : BACKGROUND_NICENESS;
}

export class BackgroundToolBuilds {
  private readonly outcomes = new Map<GoTool, BuildOutcome | 'queued' | 'running'>();
  private stopped = false;

  private constructor(private readonly log: (line: string) => void) {}

  /**
   * Starts the builds the given projects' tests need (all projects when none are named), one at
   * a time in GO_TOOLS' order (the order their first tests need them): side by side, each would compile the standard library and the
   * packages they share itself (Go's cache shares a finished compile, not one in progress), and
   * the first one needed would share the CPU. After Jaeger and Helm, kubeconform takes 7
   * CPU-seconds instead of 42 alone.
   */
  static start(projects: string[] | undefined, log: (line: string) => void): BackgroundToolBuilds {
    const names = new Set(Object.entries(TOOLS_BY_PROJECT).flatMap(([project, tools]) => (!projects || projects.includes(project) ? tools : [])));
    return BackgroundToolBuilds.of(GO_TOOLS.filter((t) => names.has(t.name)), log);
  }

  /** Starts building `tools`, one at a time in that order (the fault suite's runner: promtool). */
  static of(tools: readonly GoTool[], log: (line: string) => void): BackgroundToolBuilds {
    const builds = new BackgroundToolBuilds(log);
    for (const tool of tools) builds.outcomes.set(tool, 'queued');
    void builds.buildInTurn([...tools]);
    return builds;
  }

  private async buildInTurn(queue: GoTool[]): Promise<void> {
    for (const tool of queue) {
      if (this.stopped) return;
      this.outcomes.set(tool, 'running');
      const niceness = buildNiceness(tool);
      const outcome = await buildGoTool(tool, { niceness }).catch((error: unknown): BuildOutcome => ({ state: 'failed', report: String(error) }));
      this.outcomes.set(tool, outcome);
      if (outcome.state === 'built') this.log(`${tool.name} ${tool.version} built in ${outcome.seconds.toFixed(1)} s (in the background, nice ${niceness})`);
      if (outcome.state === 'failed') this.log(`${tool.name} ${tool.version} FAILED to build; the tests that need it fail:\n${outcome.report}`);
    }
  }

  /** One line per tool: built (how long), cached, failed, or unfinished when the run ended. */
  summary(): string[] {
    return [...this.outcomes].map(([tool, outcome]) => {
      const name = `${tool.name} ${tool.version}`;
      if (outcome === 'running') return `${name}: still building when the run ended (stopped; Go's cache keeps the work done)`;
      if (outcome === 'queued') return `${name}: not started when the run ended`;
      if (outcome.state === 'built') return `${name}: built in ${outcome.seconds.toFixed(1)} s, ${outcome.cpuSeconds.toFixed(1)} CPU-seconds (nice ${buildNiceness(tool)})`;
      if (outcome.state === 'cached') return `${name}: already built`;
      return `${name}: FAILED to build`;
    });
  }

  stop(): void {
    this.stopped = true;
    stopBuilds();
  }
}

/** The projects a runner's arguments select (`--projects=a,b` or `--projects a`), or undefined for all. */
export function selectedProjects(args: string[]): string[] | undefined {
  const named = args.flatMap((arg, i) => {
    if (arg.startsWith('--projects=')) return arg.slice('--projects='.length).split(',');
    if (arg === '--projects' || arg === '-p') return (args[i + 1] ?? '').split(',');
    return [];
  });
  return named.length ? named : undefined;
}
