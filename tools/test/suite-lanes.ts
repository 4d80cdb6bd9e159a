/**
 * How `npm test` schedules the projects' suites: in two lanes side by side, each with a PostgreSQL
 * and a Kafka of its own. The e2e files run one at a time in their lane (they share one started
 * stack, and some kill or replace its apps or SIGSTOP its broker, which would stall any other test
 * on that broker), after the libraries' tests; every other project runs in the other lane, one
 * project after another. Much of an e2e file's time is spent waiting (for a copy to start, a
 * retry to come due, a receiver to time out), so the other lane's tests use the CPU it leaves.
 */
import { join } from 'node:path';
import { selectedProjects } from './background-tool-builds';
import { TOOLS_BY_PROJECT } from './go-tools';
import { VENVS_BY_PROJECT, type TestVenvName } from './test-venvs';

export interface SuiteLane {
  name: string;
  /** What it runs, for the run's first lines. */
  runs: string;
  /** Nx's `run-many` runs of this lane's projects, one after another. */
  nxRuns: LaneRun[];
  /** The lane's servers, logs and pid files (its TAILSYNC_TEST_DATA). */
  dataDir: string;
  kafkaPort: number;
  postgresPort: number;
}

/** One `nx run-many` of a lane, and the Python venvs it waits for before it starts. */
export interface LaneRun {
  /** Its project selection (`--projects=…` or `--exclude=…`). */
  selection: string[];
  /** What it runs, for the lines that say what it waits for. */
  projects: string;
  waitsFor: TestVenvName[];
}

export interface LanePlaces {
  /** The run's data directory; each lane keeps its own under it. */
  dataDir: string;
  /** The e2e lane's ports (TEST_KAFKA_PORT, TEST_POSTGRES_PORT); the other lane's follow from them. */
  kafkaPort: number;
  postgresPort: number;
}

/** The lane of the e2e files (each file that runs a Python venv waits for its own: e2e/src/support/venv-waits.ts). */
export const E2E = 'e2e';
/** The other lane's broker ports sit above the e2e lane's (up to three brokers, each two ports) and tools/kafka's cluster test's (+100). */
const PROJECTS_LANE_KAFKA_OFFSET = 200;
/**
 * The other lane's projects whose tests wait for a tool built from Go source run after the rest
 * of the lane (Nx alone would run them among the others): their builds get the lane's whole time.
 */
const TOOL_WAITING_PROJECTS = Object.keys(TOOLS_BY_PROJECT).filter((project) => project !== E2E);
/**
 * The other lane's projects whose tests run a Python venv, other than the tool waiters: they run
 * after the projects that need none, which start at once while the venvs install beside them.
 */
const VENV_PROJECTS = Object.keys(VENVS_BY_PROJECT).filter((project) => project !== E2E && !TOOL_WAITING_PROJECTS.includes(project));

/** Every lane there is, selected or not: a killed earlier run may have left any lane's servers running. */
export function allLaneDataDirs(places: LanePlaces): string[] {
  return [join(places.dataDir, E2E), join(places.dataDir, 'projects')];
}

/**
 * The libraries' tests (about 90 s of files) run in the e2e lane, before its files, when both
 * are selected: the other lane's projects took that much longer than the e2e files.
 */
const E2E_LANE_LIBRARIES = ['contracts', 'event-store', 'webhook-signing', 'service-kit'];

/** The lanes a runner's arguments select (`--projects`; all projects when none are named), and the arguments every lane passes on. */
export function suiteLanes(args: string[], places: LanePlaces): { lanes: SuiteLane[]; passOn: string[] } {
  const named = selectedProjects(args);
  const [e2eDir, projectsDir] = allLaneDataDirs(places);
  const lanes: SuiteLane[] = [];
  const withE2e = !named || named.includes(E2E);
  const inE2eLane = withE2e ? [E2E, ...E2E_LANE_LIBRARIES] : [E2E];
  if (withE2e) {
    const libraries = E2E_LANE_LIBRARIES.filter((project) => !named || named.includes(project));
    const nxRuns: LaneRun[] = [{ selection: [`--projects=${E2E}`], projects: E2E, waitsFor: [] }];
    if (libraries.length > 0) nxRuns.unshift({ selection: [`--projects=${libraries.join(',')}`], projects: libraries.join(', '), waitsFor: [] });
    const runs = libraries.length > 0 ? `${libraries.join(', ')}, then the e2e files one at a time` : 'the e2e files, one at a time';
    lanes.push({ name: E2E, runs, nxRuns, dataDir: e2eDir, kafkaPort: places.kafkaPort, postgresPort: places.postgresPort });
  }
  const others = named?.filter((project) => !inE2eLane.includes(project));
  if (!others || others.length > 0) {
    const chosen = (projects: string[]) => projects.filter((project) => !others || others.includes(project));
    const [withVenvs, last] = [chosen(VENV_PROJECTS), chosen(TOOL_WAITING_PROJECTS)];
    const rest = others?.filter((project) => !withVenvs.includes(project) && !last.includes(project));
    const nxRuns: LaneRun[] = [];
    if (!rest) nxRuns.push({ selection: [`--exclude=${[...inE2eLane, ...VENV_PROJECTS, ...TOOL_WAITING_PROJECTS].join(',')}`], projects: 'every other project', waitsFor: [] });
    else if (rest.length > 0) nxRuns.push({ selection: [`--projects=${rest.join(',')}`], projects: rest.join(', '), waitsFor: [] });
    // One run each: a project waits for its own venvs only.
    for (const project of [...withVenvs, ...last]) nxRuns.push({ selection: [`--projects=${project}`], projects: project, waitsFor: VENVS_BY_PROJECT[project] ?? [] });
    lanes.push({
      name: 'projects',
      runs: `${nxRuns.map((run) => run.projects + (run.waitsFor.length ? ` (once ${run.waitsFor.join(', ')} ${run.waitsFor.length > 1 ? 'are' : 'is'} installed)` : '')).join(', then ')}, one after another`,
      nxRuns,
      dataDir: projectsDir,
      kafkaPort: places.kafkaPort + PROJECTS_LANE_KAFKA_OFFSET,
      postgresPort: places.postgresPort + 1,
    });
  }
  return { lanes, passOn: withoutProjectSelection(args) };
}

/**
 * How many lanes run at once: 2 (side by side, the default) or 1 (one after another, each still on
 * its own servers), from TEST_LANES_AT_ONCE: for a machine with one core, or one loaded by other work.
 */
export function lanesAtOnce(env: NodeJS.ProcessEnv): 1 | 2 {
  const value = env.TEST_LANES_AT_ONCE ?? '2';
  if (value !== '1' && value !== '2') throw new Error(`TEST_LANES_AT_ONCE is "${value}": 2 runs the lanes side by side, 1 one after another`);
  return value === '1' ? 1 : 2;
}

function withoutProjectSelection(args: string[]): string[] {
  return args.filter((arg, i) => !arg.startsWith('--projects=') && arg !== '--projects' && arg !== '-p' && args[i - 1] !== '--projects' && args[i - 1] !== '-p');
}
