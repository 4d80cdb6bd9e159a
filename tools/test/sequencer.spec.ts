import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectedProjects } from './background-tool-builds';

// The runner's Jest sequencer (CommonJS, named by the projects' jest.config.js).
interface Sorter {
  runLast: string[];
  sort(tests: { path: string }[]): Promise<{ path: string }[]>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ByNameToolWaitersLast = require('./sequencer.js') as new (options: unknown) => Sorter;

describe('the order of test files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sequencer-'));
    writeFileSync(join(dir, 'a-waits.spec.ts'), "const bin = await builtTool('helm');");
    writeFileSync(join(dir, 'b-plain.spec.ts'), 'expect(1).toBe(1);');
    writeFileSync(join(dir, 'c-plain.spec.ts'), 'expect(2).toBe(2);');
    writeFileSync(join(dir, 'd-read-back.spec.ts'), 'expect(3).toBe(3);');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const sorted = async (sequencer: Sorter) =>
    (await sequencer.sort(['d-read-back', 'c-plain', 'a-waits', 'b-plain'].map((name) => ({ path: join(dir, `${name}.spec.ts`) })))).map((t) =>
      t.path.slice(dir.length + 1),
    );

  it('runs files by name, with the files that wait for a tool built from Go source after the others', async () => {
    expect(await sorted(new ByNameToolWaitersLast({ contexts: [] }))).toEqual(['b-plain.spec.ts', 'c-plain.spec.ts', 'd-read-back.spec.ts', 'a-waits.spec.ts']);
  });

  it('runs the files a project names last after everything, tool waiters included', async () => {
    class ReadBackLast extends ByNameToolWaitersLast {
      runLast = ['d-read-back.spec.ts'];
    }
    expect(await sorted(new ReadBackLast({ contexts: [] }))).toEqual(['b-plain.spec.ts', 'c-plain.spec.ts', 'a-waits.spec.ts', 'd-read-back.spec.ts']);
  });
});

describe('the projects a run selects (which tools it builds)', () => {
  it('reads Nx\'s --projects in both spellings, and means every project without it', () => {
    expect(selectedProjects(['--projects=e2e,tools', '--testPathPatterns=x'])).toEqual(['e2e', 'tools']);
    expect(selectedProjects(['--projects', 'gateway'])).toEqual(['gateway']);
    expect(selectedProjects(['--testPathPatterns=x'])).toBeUndefined();
  });
});
