import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_NODE_FLAGS } from './app-process';
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
