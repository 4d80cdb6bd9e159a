import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isAlive, waitForExit } from './process-table';
import { stopStaleProcess } from './stale-process';
import { startSupervisedProcess } from './supervised-process';
import { testServerSpec } from './test-server.test-support';
import { freePort } from '@tailsync/service-kit/testing';

const REPO_ROOT = join(__dirname, '..', '..');
let dir: string;
const leftovers: number[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tailsync-supervisor-'));
});

afterEach(() => {
  for (const pid of leftovers.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('a supervised process', () => {
  it('is ready once its probe passes, its pid in the pid file and its output passed on line by line', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const server = await startSupervisedProcess(
      testServerSpec(dir, [`--port=${port}`], {
        output: (line) => lines.push(line),
        ready: { probe: () => answers(port), intervalMs: 50, timeoutMs: 10_000 },
      }),
    );
    leftovers.push(server.pid);
    await expect(answers(port)).resolves.toBeUndefined();
    expect(readFileSync(join(dir, 'server.pid'), 'utf8').trim()).toBe(String(server.pid));
    expect(lines).toContain(`listening on ${port}`);
    await server.stop();
  });

  it('stops with its stop signal, waits for the exit and removes the pid file', async () => {
    const lines: string[] = [];
    const server = await startSupervisedProcess(
      testServerSpec(dir, [], { output: (line) => lines.push(line), stop: { signal: 'SIGINT', graceMs: 5_000 } }),
    );
    leftovers.push(server.pid);
    await server.stop();
    expect(lines).toContain('stopping on SIGINT');
    expect(isAlive(server.pid)).toBe(false);
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
  });

  it('is killed (SIGKILL) when it ignores the stop signal past the grace period', async () => {
    const lines: string[] = [];
    const server = await startSupervisedProcess(
      testServerSpec(dir, ['--ignore=SIGTERM'], { output: (line) => lines.push(line), stop: { signal: 'SIGTERM', graceMs: 500 } }),
    );
    leftovers.push(server.pid);
    const t0 = Date.now();
    await server.stop();
    const took = Date.now() - t0;
    expect(lines).toContain('ignoring SIGTERM');
    expect(isAlive(server.pid)).toBe(false);
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(3_000);
  });

  it('fails to start with its exit code and last output when it exits before it is ready', async () => {
    await expect(startSupervisedProcess(testServerSpec(dir, ['--exit-with=3'], { output: { file: join(dir, 'server.log') } }))).rejects.toThrow(
      /^the test server did not become ready after [\d.]+ s: it exited \(exit code 3\) \(full log: .*server\.log\)\n--- last output ---\ncannot start: the configuration is broken/,
    );
    expect(readFileSync(join(dir, 'server.log'), 'utf8')).toContain('cannot start: the configuration is broken');
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
  });

  it('fails to start, naming the command, when it cannot be run', async () => {
    await expect(startSupervisedProcess(testServerSpec(dir, [], { command: join(dir, 'no-such-server') }))).rejects.toThrow(
      /^the test server did not become ready after [\d.]+ s: could not run .*no-such-server: spawn .*ENOENT/,
    );
  });

  it('is stopped, and fails to start, when it is not ready in time', async () => {
    const lines: string[] = [];
    const never = async () => {
      throw new Error('no answer');
    };
    await expect(
      startSupervisedProcess(testServerSpec(dir, [], { output: (line) => lines.push(line), ready: { probe: never, intervalMs: 100, timeoutMs: 500 } })),
    ).rejects.toThrow(/did not become ready after [\d.]+ s: timed out after 0.5 s; last probe: no answer/);
    expect(lines).toContain('stopping on SIGTERM');
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
  });
});

describe('a server whose run ended without stopping it', () => {
  it('is stopped by the next run, found by its pid file, when that run was killed', async () => {
    const { launcher, serverPid } = await launch('idle');
    launcher.kill('SIGKILL');
    await new Promise((resolve) => launcher.once('exit', resolve));
    expect(isAlive(serverPid)).toBe(true);

    await stopStaleProcess(testServerSpec(dir));
    expect(isAlive(serverPid)).toBe(false);
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
  });

  it('is left alone, with an error that says so, while the run that started it still lives', async () => {
    const { launcher, serverPid } = await launch('idle');
    await expect(stopStaleProcess(testServerSpec(dir))).rejects.toThrow(
      `Cannot start the test server: it is already running on ${dir} (pid ${serverPid}, started by node pid ${launcher.pid})`,
    );
    expect(isAlive(serverPid)).toBe(true);

    // That run, stopped by a signal nobody else handles, takes its server along.
    launcher.kill('SIGTERM');
    await waitForExit(serverPid, 5_000);
    expect(isAlive(serverPid)).toBe(false);
  });

  it('gets the parent-exit signal when its run exits normally', async () => {
    const { launcher, serverPid } = await launch('exit');
    await new Promise((resolve) => (launcher.exitCode === null ? launcher.once('exit', resolve) : resolve(undefined)));
    await waitForExit(serverPid, 5_000);
    expect(isAlive(serverPid)).toBe(false);
  });

  it('is not confused with an unrelated process that has the pid now: only the pid file goes', async () => {
    writeFileSync(join(dir, 'server.pid'), `${process.pid}\n`);
    await stopStaleProcess(testServerSpec(dir));
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
    expect(isAlive(process.pid)).toBe(true);
  });
});

/** Runs launcher.test-support.ts, a run of its own, and resolves once its server is ready. */
async function launch(then: 'idle' | 'exit'): Promise<{ launcher: ChildProcess; serverPid: number }> {
  const launcher = spawn(process.execPath, [join(REPO_ROOT, 'tools', 'run.js'), join(__dirname, 'launcher.test-support.ts'), dir, then], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  leftovers.push(launcher.pid as number);
  for await (const line of createInterface({ input: launcher.stdout! })) {
    const started = /^started (\d+)$/.exec(line);
    if (started) {
      leftovers.push(Number(started[1]));
      return { launcher, serverPid: Number(started[1]) };
    }
  }
  throw new Error(`the launcher exited (${launcher.exitCode}) before its server was ready`);
}

function answers(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}
