import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_NODE_FLAGS, spawnApp, waitForHttp } from './app-process';
import { REPO_ROOT } from './infrastructure';

describe('the apps\' Node flags', () => {
  it('are the same in the Dockerfile as in the local stack (what the bench measures is what ships)', () => {
    const cmd = /^CMD (.*)$/m.exec(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'))?.[1];
    const command = (JSON.parse(cmd ?? '[]') as string[]).join(' ');
    expect(command).toMatch(/exec node (.*) tools\/run\.js apps\/\$\{APP\}\/src\/main\.ts$/);
    const flags = /exec node (.*) tools\/run\.js/.exec(command)?.[1].split(' ');
    expect(flags).toEqual(APP_NODE_FLAGS);
  });
});

describe('waiting for an app that dies before it is ready', () => {
  it('fails with the app\'s own last log lines, so a run elsewhere (CI) says why', async () => {
    const logDir = mkdtempSync(join(tmpdir(), 'app-process-'));
    try {
      const app = spawnApp('tail-sync', { DATABASE_URL: 'not a url' }, logDir, 'tail-sync-dies');
      const failure = waitForHttp('http://127.0.0.1:9/health/ready', 60_000, [app]);
      await expect(failure).rejects.toThrow(/tail-sync-dies exited with code 1 before .* was ready; the end of .*tail-sync-dies\.log:\n(.|\n)*DATABASE_URL/);
    } finally {
      rmSync(logDir, { recursive: true, force: true });
    }
  }, 90_000);
});
