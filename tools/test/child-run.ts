import { spawn, type SpawnOptions } from 'node:child_process';

/**
 * Runs a child to its end and gives its exit status (null when a signal ended it), with this
 * process's event loop running meanwhile: the test runner drains PostgreSQL's and Kafka's log
 * pipes while the suite runs, and a spawnSync stopped that (a full pipe stops the server).
 */
export function runChild(command: string, args: string[], options: SpawnOptions): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}
