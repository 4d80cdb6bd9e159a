import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TEST_VENVS, VENVS_BY_PROJECT, venvsOf } from './test-venvs';

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
      for (const venv of TEST_VENVS.filter(({ variable }) => text.includes(`process.env.${variable}`))) (found[project.name] ??= new Set()).add(venv.name);
    }
    const expected = Object.fromEntries(Object.entries(VENVS_BY_PROJECT).map(([project, venvs]) => [project, [...venvs].sort()]));
    expect(Object.fromEntries(Object.entries(found).map(([project, venvs]) => [project, [...venvs].sort()]))).toEqual(expected);
  });
});
