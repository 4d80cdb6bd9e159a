/**
 * Runs one long-lived server for the local stack and the tests (the Kafka broker, PostgreSQL):
 * spawns it, passes its output on line by line, resolves once it serves, and stops it (a graceful
 * signal, SIGKILL after a deadline). Its pid file lets a later run find it if this run is killed
 * (stale-process.ts); if this Node process exits without stop(), the server gets a signal too.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { onExit } from 'signal-exit';
import { openOutput, OutputSink } from './output-sink';
import { ProcessRecord } from './stale-process';
import { stopChild } from './stop-child';

/** When the server counts as ready: a probe that passes, or a line it prints. */
export type Readiness =
  | {
      /** Resolves once the server serves; rejects with the reason while it does not. */
      probe: () => Promise<void>;
      /** Asked again after each output line, or after this long without one. */
      intervalMs: number;
      timeoutMs: number;
    }
  | { outputLine: string; timeoutMs: number };

export interface SupervisedProcessSpec extends ProcessRecord {
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Runs as this user (PostgreSQL refuses to run as root). */
  user?: { uid: number; gid: number };
  output: OutputSink;
  ready: Readiness;
  /** Sent if this Node process exits without stop(): it cannot wait for the server then. */
  signalOnParentExit: NodeJS.Signals;
}

export interface SupervisedProcess {
  pid: number;
  /** The stop policy's signal, SIGKILL after its grace period; idempotent. */
  stop(): Promise<void>;
}

/** Lines of output kept for the error when the server does not become ready. */
const RECENT_LINES = 40;
/** After it exits, how long its last lines may take to come through the pipes. */
const LAST_LINES_WAIT_MS = 1_000;
const noop = () => undefined;

export async function startSupervisedProcess(spec: SupervisedProcessSpec): Promise<SupervisedProcess> {
  const commandLine = [spec.command, ...spec.args].join(' ');
  const unidentified = spec.identity.filter((part) => !commandLine.includes(part));
  if (unidentified.length) throw new Error(`${spec.name}: ${unidentified.join(', ')} is not in its command line, so a later run could not find it`);

  const output = openOutput(spec.output);
  const recent: string[] = [];
  let printedReadyLine = false;
  const ready = spec.ready;
  const probe =
    'probe' in ready
      ? ready.probe
      : async () => {
          if (!printedReadyLine) throw new Error(`it has not printed "${ready.outputLine}" yet`);
        };
  const intervalMs = 'probe' in ready ? ready.intervalMs : ready.timeoutMs;
  // Readiness is asked again as soon as anything happens: a line, an exit.
  let nudged = false;
  let nudge: () => void = noop;
  const onEvent = () => {
    nudged = true;
    nudge();
  };
  const onLine = (line: string) => {
    if ('outputLine' in ready && line.includes(ready.outputLine)) printedReadyLine = true;
    recent.push(line);
    if (recent.length > RECENT_LINES) recent.shift();
    try {
      output.write(line);
    } catch {
      /* a throwing logger must not take the server down */
    }
    onEvent();
  };

  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    uid: spec.user?.uid,
    gid: spec.user?.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let failure: string | undefined;
  let stopping: Promise<void> | undefined;
  child.once('error', (err) => {
    failure ??= `could not run ${spec.command}: ${err.message}`;
    onEvent();
  });
  child.once('exit', (code, signal) => {
    const how = signal ? `killed by ${signal}` : `exit code ${code}`;
    failure ??= `it exited (${how})`;
    if (!stopping) onLine(`[tools/process] ${spec.name} pid ${child.pid} exited unexpectedly (${how})`);
    onEvent();
  });
  if (child.pid !== undefined) writeFileSync(spec.pidFile, `${child.pid}\n`);
  const unhook = onExit(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill(spec.signalOnParentExit);
  });

  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await stopChild(child, spec.stop);
      await Promise.race([closed, new Promise((r) => setTimeout(r, LAST_LINES_WAIT_MS).unref())]);
      unhook();
      try {
        if (readFileSync(spec.pidFile, 'utf8').trim() === String(child.pid)) rmSync(spec.pidFile, { force: true });
      } catch {
        /* gone */
      }
      await output.close();
    })());

  const started = Date.now();
  const deadline = started + ready.timeoutMs;
  let lastProbe = 'not asked yet';
  while (!failure) {
    nudged = false;
    try {
      await probe();
      return { pid: child.pid as number, stop };
    } catch (err) {
      lastProbe = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() >= deadline) failure = `timed out after ${ready.timeoutMs / 1000} s; last probe: ${lastProbe}`;
    else if (!nudged) await nudgedOrAfter(Math.min(intervalMs, deadline - Date.now()));
  }
  await stop();
  throw new Error(
    `${spec.name} did not become ready after ${((Date.now() - started) / 1000).toFixed(1)} s: ${failure}${output.where}\n` +
      `--- last output ---\n${recent.join('\n') || '(none)'}`,
  );

  function nudgedOrAfter(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        nudge = noop;
        resolve();
      }
      nudge = done;
    });
  }
}
