import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild } from '../process/stop-child';
import { withAppKafkaEnv } from './app-kafka-env';
import { withoutDispatcherOnlySettings } from './dispatcher-only-settings';
import { REPO_ROOT } from './infrastructure';

export type AppName = 'gateway' | 'tail-sync' | 'webhook-dispatcher';

export interface AppProcess {
  name: AppName;
  instance: string;
  /** Where the app writes its output. */
  logFile: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** SIGTERM and wait (a clean shutdown); SIGKILL after the grace period. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL now: the crash every test of "nothing lost" needs. */
  kill(): Promise<void>;
}

/**
 * V8 flags every app runs with, here and in the Dockerfile (a spec checks they agree).
 * `--single-threaded-gc`: V8's GC helper threads compete for the same few cores as PostgreSQL,
 * Kafka and the other apps, and cost CPU to coordinate (docs/performance.md, "Performance choices").
 */
export const APP_NODE_FLAGS = ['--single-threaded-gc'];

/** Runs one tailsync app from its TypeScript sources, its output into a log file. */
export function spawnApp(
  name: AppName,
  env: Record<string, string>,
  logDir: string,
  instance: string = name,
  /** Node flags before the entry point (e.g. the benchmark's `--cpu-prof`, which NODE_OPTIONS cannot carry). */
  nodeArgs: string[] = [],
): AppProcess {
  mkdirSync(logDir, { recursive: true });
  // The app appends to its log file itself: through a pipe, this process would copy every line.
  const logFile = join(logDir, `${instance}.log`);
  const log = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...APP_NODE_FLAGS, ...nodeArgs, join(REPO_ROOT, 'tools', 'run.js'), join(REPO_ROOT, 'apps', name, 'src', 'main.ts')], {
      cwd: REPO_ROOT,
      env: { ...withoutDispatcherOnlySettings(name, withAppKafkaEnv(name, { ...process.env, ...env })), INSTANCE_ID: instance },
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  process.once('exit', () => child.kill('SIGKILL'));
  return {
    name,
    instance,
    logFile,
    child,
    exited,
    stop: (graceMs = 10_000) => stopChild(child, { signal: 'SIGTERM', graceMs }),
    kill: () => stopChild(child, { signal: 'SIGKILL', graceMs: 0 }),
  };
}

/** Polls a URL until it answers 200, failing with the app's exit when it dies first. */
export async function waitForHttp(url: string, timeoutMs: number, apps: AppProcess[] = []): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const dead = apps.find((a) => a.child.exitCode !== null);
    if (dead) throw new Error(`${dead.instance} exited with code ${dead.child.exitCode} before ${url} was ready; the end of ${dead.logFile}:\n${logTail(dead.logFile)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (res.status === 200) return;
      last = `${res.status} ${(await res.text()).slice(0, 500)}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms: ${last}`);
}

/** The last lines of an app's log: a run on another machine (CI) shows why the app died, not only that it did. */
function logTail(file: string, lines = 12): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).map((l) => l.slice(0, 600)).join('\n');
  } catch (error) {
    return `(unreadable: ${(error as Error).message})`;
  }
}
