import { ChildProcess } from 'node:child_process';

/** How a process is asked to stop, and how long it gets before SIGKILL. */
export interface StopPolicy {
  signal: NodeJS.Signals;
  graceMs: number;
}

/** Sends `signal`, SIGKILLs after `graceMs` if the child is still there, and waits for its exit. */
export async function stopChild(child: ChildProcess, { signal, graceMs }: StopPolicy): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
