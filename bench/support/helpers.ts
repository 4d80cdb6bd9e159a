/** Parent side of the helper processes (support/helper-main.ts): fork, request, stop. */
import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@tailsync/stack';

export interface Helper {
  pid: number;
  request<T = Record<string, unknown>>(type: string, payload?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

export async function startHelper(role: 'http-baseline' | 'read-floor' | 'write-floor' | 'grpc-floor' | 'receiver' | 'kafka-sink', helperPids: Set<number>): Promise<Helper> {
  const child: ChildProcess = fork(join(REPO_ROOT, 'tools', 'run.js'), [join(__dirname, 'helper-main.ts'), role], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`helper ${role} exited (${code}) before it was ready`)));
    child.on('message', (msg: { id?: number; type?: string; ok?: boolean; error?: string }) => {
      if (msg.type === 'ready') return resolve();
      const p = msg.id !== undefined ? pending.get(msg.id) : undefined;
      if (!p) return;
      pending.delete(msg.id as number);
      if (msg.ok) p.resolve(msg);
      else p.reject(new Error(msg.error));
    });
  });
  helperPids.add(child.pid as number);
  return {
    pid: child.pid as number,
    request: (type, payload = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        child.send({ id, type, ...payload });
      }),
    stop: async () => {
      helperPids.delete(child.pid as number);
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
