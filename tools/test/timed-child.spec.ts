import { existsSync, readFileSync } from 'node:fs';
import { spawnTimed, stopGroup } from './timed-child';

const busy = (ms: number) => `const t = process.cpuUsage(); while ((process.cpuUsage(t).user + process.cpuUsage(t).system) / 1000 < ${ms});`;

describe('a child run with its CPU-seconds counted', () => {
  it('counts the CPU of the child and of the descendants it waited for, and gives its exit status', async () => {
    // The child burns 0.5 CPU-s itself and waits for a grandchild that burns 0.5 more.
    const grandchild = `require('node:child_process').spawnSync(process.execPath, ['-e', ${JSON.stringify(busy(500))}]);`;
    const { exit } = spawnTimed(process.execPath, ['-e', `${busy(500)} ${grandchild} process.exit(3)`], { stdio: 'ignore' });
    const { status, cpuSeconds } = await exit;
    expect(status).toBe(3);
    expect(cpuSeconds).toBeGreaterThanOrEqual(1);
    expect(cpuSeconds).toBeLessThan(5);
  }, 60_000);

  it('stops a detached child together with what it started', async () => {
    const { child, exit } = spawnTimed(process.execPath, ['-e', "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); console.log(process.pid)'], { stdio: 'inherit' }); setInterval(() => {}, 1000);"], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    const grandchild = await new Promise<number>((resolve) => child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    stopGroup(child);
    expect((await exit).status).not.toBe(0);
    // Killed, it is gone once its new parent (init) reaps it.
    const alive = () => existsSync(`/proc/${grandchild}`) && !readFileSync(`/proc/${grandchild}/stat`, 'utf8').includes(') Z ');
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  }, 60_000);
});
