/**
 * Builds a Go tool into the machine-wide cache (go-tool-cache.ts), or waits for the process that
 * is already building it, with the flags of go-build-flags.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { findGo } from '../ci/go';
import { GO_BUILD_ENV, goBuildFlags } from './go-build-flags';
import { GoToolFiles } from './go-tool-cache';
import type { GoTool } from './go-tools';
import { spawnTimed, stopGroup } from './timed-child';
import { raiseGroupPriority } from '../process/group-priority';

/** `cpuSeconds`: the CPU the build's compilers and linker used, whatever else ran beside them. */
export type BuildOutcome = { state: 'cached'; path: string } | { state: 'built'; path: string; seconds: number; cpuSeconds: number } | { state: 'failed'; report: string };

export interface BuildOptions {
  /** Niceness of the build, so that a build beside the suite takes the CPU the suite leaves. */
  niceness: number;
}

const WAIT_POLL_MS = 1_000;
const REPORT_LINES = 40;
const running = new Set<ChildProcess>();
const held = new Set<GoToolFiles>();

/** Stops this process's builds and frees their locks (the runner's exit; Go's caches keep the work done). */
export function stopBuilds(): void {
  for (const child of running) stopGroup(child);
  for (const files of held) files.unlock();
}

export async function buildGoTool(tool: GoTool, options: BuildOptions): Promise<BuildOutcome> {
  const files = new GoToolFiles(tool);
  for (;;) {
    if (files.isBuilt()) return { state: 'cached', path: files.binary };
    if (files.tryLock()) break;
    raiseToWaiter(files, options.niceness);
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    if (files.lockHolder() === undefined && !files.isBuilt()) {
      const report = files.failure();
      if (report) return { state: 'failed', report };
    }
  }
  held.add(files);
  try {
    if (files.isBuilt()) return { state: 'cached', path: files.binary };
    return await build(tool, files, options);
  } finally {
    files.unlock();
    held.delete(files);
  }
}

/**
 * A caller waiting for another's build (a test, while the runner builds the tool at nice 10 in the
 * background) raises that build to its own priority: nothing is gained by building slowly what a
 * test already waits for. On a loaded machine such waits were 157 s (Helm) and 210 s (promtool).
 */
function raiseToWaiter(files: GoToolFiles, niceness: number): void {
  try {
    files.askNiceness(niceness);
  } catch {
    return; // the lock went away meanwhile: the build ended
  }
  const group = files.stepGroup();
  if (group !== undefined) raiseGroupPriority(group, niceness);
}

async function build(tool: GoTool, files: GoToolFiles, { niceness }: BuildOptions): Promise<BuildOutcome> {
  const t0 = Date.now();
  files.clearFailure();
  rmSync(files.staging, { recursive: true, force: true });
  mkdirSync(files.staging, { recursive: true });
  const out = openSync(files.log, 'w');
  let cpuSeconds = 0;
  const counted = (cpu: Promise<number>) => cpu.then((seconds) => void (cpuSeconds += seconds));
  try {
    const go = findGo();
    if (!go) throw new Error('Go is not installed (Go 1.24 or later, https://go.dev/dl); the tests that need this tool cannot run');
    const env = { ...process.env, CGO_ENABLED: GO_BUILD_ENV.CGO_ENABLED, GOFLAGS: `${process.env.GOFLAGS ?? ''} ${GO_BUILD_ENV.GOFLAGS}`.trim() };
    const output = join(files.staging, tool.name);
    const flags = goBuildFlags(tool);
    const step = (args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}) => counted(runLogged(go, args, { cwd, env: { ...env, ...extraEnv }, out, files, niceness }));
    switch (tool.source.kind) {
      case 'install':
        await step(['install', ...flags, `${tool.pkg}@${tool.version}`], files.staging, { GOBIN: files.staging });
        break;
      case 'our-module':
        await step(['build', ...flags, '-o', output, tool.pkg], tool.source.dir);
        break;
      case 'its-module': {
        const listing = join(files.staging, 'module.json');
        const listed = openSync(listing, 'w');
        await counted(runLogged(go, ['mod', 'download', '-json', `${tool.source.module}@${tool.version}`], { cwd: files.staging, env, out: listed, files, niceness }));
        closeSync(listed);
        const dir = JSON.parse(readFileSync(listing, 'utf8')).Dir as string;
        rmSync(listing);
        // Inside its own module, whose go.sum is read-only in the module cache.
        await step(['build', ...flags, '-o', output, tool.pkg], dir, { GOFLAGS: `${env.GOFLAGS} -mod=mod` });
        break;
      }
    }
  } catch (error) {
    closeSync(out);
    const lines = readFileSync(files.log, 'utf8').trimEnd().split('\n').slice(-REPORT_LINES).join('\n');
    const report = `${tool.name} ${tool.version} failed to build (${error instanceof Error ? error.message : String(error)}); its last lines (${files.log}):\n${lines}`;
    files.recordFailure(report);
    return { state: 'failed', report };
  }
  closeSync(out);
  const seconds = (Date.now() - t0) / 1000;
  rmSync(files.dir, { recursive: true, force: true });
  renameSync(files.staging, files.dir);
  files.recordTiming(seconds, cpuSeconds);
  return { state: 'built', path: files.binary, seconds, cpuSeconds };
}

interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out: number;
  /** The tool's lock, where the step names its process group and waiters ask for a priority. */
  files: GoToolFiles;
  niceness: number;
}

/** Runs one `go` step into the build's log; the CPU-seconds it used. */
async function runLogged(go: string, args: string[], { cwd, env, out, files, niceness }: RunOptions): Promise<number> {
  const nice = Math.min(niceness, files.askedNiceness() ?? niceness);
  // Its own process group: stopping the run ends the compilers `go` started too, and a waiter raises them all.
  const { child, exit } = spawnTimed('nice', ['-n', String(nice), go, ...args], { cwd, env, stdio: ['ignore', out, out], detached: true });
  running.add(child);
  if (child.pid !== undefined) files.recordStepGroup(child.pid);
  try {
    const { status, cpuSeconds } = await exit;
    if (status !== 0) throw new Error(`go ${args[0]} exited with ${status ?? 'a signal'}`);
    return cpuSeconds ?? 0;
  } finally {
    running.delete(child);
  }
}
