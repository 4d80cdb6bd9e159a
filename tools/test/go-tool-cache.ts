/**
 * Where tools built from Go modules live on this machine, shared by every checkout: a tool built
 * once for its pinned version is never built again (`TAILSYNC_TOOLS_CACHE`, else
 * `$XDG_CACHE_HOME/tailsync/tools`, else `~/.cache/tailsync/tools`). Builds share Go's own module
 * and build caches (GOMODCACHE, GOCACHE), so tools with common dependencies compile them once.
 *
 * A build is named after the tool, its pinned version and a digest of its build flags
 * (go-build-flags.ts): a change of flags or tags builds it again.
 *
 * Several processes may want one tool at once (the runner's background build, a test that needs
 * it): a lock directory names the building process and its running step's process group (which a
 * waiter at a higher priority raises to its own), a `.failed` file keeps a failed build's last
 * lines for whoever waits.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { goBuildKey } from './go-build-flags';
import type { GoTool } from './go-tools';

export function toolsCacheDir(): string {
  if (process.env.TAILSYNC_TOOLS_CACHE) return process.env.TAILSYNC_TOOLS_CACHE;
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tailsync', 'tools');
}

/** The files of one tool at its pinned version. */
export class GoToolFiles {
  readonly dir: string;

  constructor(readonly tool: GoTool) {
    this.dir = join(toolsCacheDir(), 'go-bin', `${tool.name}@${tool.version}-${goBuildKey(tool)}`);
  }

  get binary(): string {
    return join(this.dir, this.tool.name);
  }

  get log(): string {
    return `${this.dir}.log`;
  }

  get staging(): string {
    return `${this.dir}.partial`;
  }

  private get lockDir(): string {
    return `${this.dir}.lock`;
  }

  private get failedFile(): string {
    return `${this.dir}.failed`;
  }

  private get timingFile(): string {
    return join(this.dir, 'built.json');
  }

  isBuilt(): boolean {
    return existsSync(this.binary);
  }

  /** Takes the build lock for this process; false when a live process holds it. */
  tryLock(): boolean {
    mkdirSync(join(toolsCacheDir(), 'go-bin'), { recursive: true });
    try {
      mkdirSync(this.lockDir);
    } catch {
      if (this.lockHolder() !== undefined) return false;
      // Its holder died (a killed run): the lock is stale.
      rmSync(this.lockDir, { recursive: true, force: true });
      return this.tryLock();
    }
    writeFileSync(join(this.lockDir, 'pid'), String(process.pid));
    return true;
  }

  /** The process group of the build step running now (go-tool-build.ts starts each in its own). */
  recordStepGroup(pgid: number): void {
    writeFileSync(join(this.lockDir, 'group'), String(pgid));
  }

  stepGroup(): number | undefined {
    return this.readNumber(join(this.lockDir, 'group'));
  }

  /** A waiter's niceness: the build's later steps run no nicer than the lowest asked. */
  askNiceness(niceness: number): void {
    const asked = this.askedNiceness();
    if (asked === undefined || niceness < asked) writeFileSync(join(this.lockDir, 'niceness'), String(niceness));
  }

  askedNiceness(): number | undefined {
    return this.readNumber(join(this.lockDir, 'niceness'));
  }

  private readNumber(file: string): number | undefined {
    try {
      return Number(readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  }

  unlock(): void {
    rmSync(this.lockDir, { recursive: true, force: true });
  }

  /** The pid of the live process building the tool, if one is. */
  lockHolder(): number | undefined {
    let pid: number;
    try {
      pid = Number(readFileSync(join(this.lockDir, 'pid'), 'utf8'));
    } catch {
      // A lock made a moment ago may not have its pid yet: count it as held until it has.
      return existsSync(this.lockDir) ? -1 : undefined;
    }
    try {
      process.kill(pid, 0);
      return pid;
    } catch {
      return undefined;
    }
  }

  recordFailure(text: string): void {
    writeFileSync(this.failedFile, text);
  }

  clearFailure(): void {
    rmSync(this.failedFile, { force: true });
  }

  /** A failed build's report (its last lines), if the last build failed. */
  failure(): string | undefined {
    return existsSync(this.failedFile) ? readFileSync(this.failedFile, 'utf8') : undefined;
  }

  recordTiming(seconds: number, cpuSeconds: number): void {
    writeFileSync(this.timingFile, JSON.stringify({ seconds, cpuSeconds, builtAt: new Date().toISOString() }));
  }

  /** How long the build that made the binary took, and the CPU-seconds it used. */
  timing(): { seconds: number; cpuSeconds?: number; builtAt: string } | undefined {
    return existsSync(this.timingFile) ? JSON.parse(readFileSync(this.timingFile, 'utf8')) : undefined;
  }
}
