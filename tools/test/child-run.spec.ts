import { spawn } from 'node:child_process';
import { runChild } from './child-run';

describe('runChild', () => {
  it("gives the child's exit status", async () => {
    await expect(runChild(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' })).resolves.toBe(3);
  });

  it('keeps draining a server\'s output pipe while the child runs, so the server never blocks on a full pipe', async () => {
    // A "server" writing 1 MiB to a pipe this process reads, while a child runs for 1.5 s: with the
    // event loop blocked (spawnSync) the server stops at the pipe's 64 KiB and never finishes.
    const server = spawn(process.execPath, ['-e', "process.stdout.write('x'.repeat(1 << 20), () => process.exit(0))"], { stdio: ['ignore', 'pipe', 'ignore'] });
    let drained = 0;
    server.stdout.on('data', (chunk: Buffer) => (drained += chunk.length));
    const serverDone = new Promise<number | null>((resolve) => server.once('exit', resolve));
    await runChild(process.execPath, ['-e', 'setTimeout(() => {}, 1500)'], { stdio: 'ignore' });
    expect(drained).toBe(1 << 20);
    await expect(serverDone).resolves.toBe(0);
  });
});
