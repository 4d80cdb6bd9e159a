import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TEST_VENVS, VENVS_BY_PROJECT, venvsOf, venvsReadBy, venvsReadIn } from './test-venvs';

const ROOT = join(__dirname, '..', '..');
const tracked = (pattern: string) => execFileSync('git', ['ls-files', pattern], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

describe('which projects wait for which Python venv', () => {
  it('installs only the venvs of the projects a run selects', () => {
    expect(venvsOf(['gateway', 'contracts'])).toEqual([]);
    expect(venvsOf(['gateway', 'tools']).map((venv) => venv.name)).toEqual(['python-receivers']);
    expect(venvsOf(['e2e']).map((venv) => venv.name)).toEqual(['python-receivers', 'api-clients', 'schemathesis', 'kafka-consumer']);
    expect(venvsOf(undefined)).toEqual(TEST_VENVS);
  });

  it("names every project whose files read a venv's variable, and no other", () => {
    // Each Nx project's folder; e2e/compose is the compose test's, which installs its venv itself.
    const projects = tracked('*project.json').map((file) => ({ root: dirname(file), name: (JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as { name: string }).name }));
    const found: Record<string, Set<string>> = {};
    for (const file of tracked('*.ts').filter((f) => !f.startsWith('e2e/compose/'))) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const project = projects.filter(({ root }) => file.startsWith(`${root}/`)).sort((a, b) => b.root.length - a.root.length)[0];
      for (const venv of venvsReadIn(text)) (found[project.name] ??= new Set()).add(venv);
    }
    const expected = Object.fromEntries(Object.entries(VENVS_BY_PROJECT).map(([project, venvs]) => [project, [...venvs].sort()]));
    expect(Object.fromEntries(Object.entries(found).map(([project, venvs]) => [project, [...venvs].sort()]))).toEqual(expected);
  });
});

describe('which venvs an e2e file waits for', () => {
  const e2e = (file: string) => venvsReadBy(join(ROOT, 'e2e', 'src', file));

  it('names the venvs a file reads, and those of the helpers it imports from its folder', () => {
    expect(e2e('openapi.e2e.ts')).toEqual(['schemathesis']);
    expect(e2e('independent-consumer.e2e.ts')).toEqual(['kafka-consumer']);
    expect(e2e('auth.e2e.ts')).toEqual(['api-clients']);
    // Through e2e/src/support/python.ts only.
    expect(readFileSync(join(ROOT, 'e2e', 'src', 'webhooks-standard.e2e.ts'), 'utf8')).not.toContain('process.env.TAILSYNC_TEST_PYTHON');
    expect(e2e('webhooks-standard.e2e.ts')).toEqual(['python-receivers']);
  });

  it('names none for a file that runs no Python', () => {
    expect(e2e('abuse-backfill.e2e.ts')).toEqual([]);
  });

  it('finds, over the e2e files, every venv the e2e project is given', () => {
    const names = new Set(tracked('e2e/src/*.e2e.ts').flatMap((file) => venvsReadBy(join(ROOT, file))));
    expect([...names].sort()).toEqual([...VENVS_BY_PROJECT.e2e].sort());
  });
});
