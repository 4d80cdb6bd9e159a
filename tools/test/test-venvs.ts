/**
 * The Python venvs `npm test` installs for the tests, and which projects' tests use each: the
 * runner installs only the venvs of the projects a run selects, a project of another lane waits
 * only for its own venvs, and an e2e file only for those it (or a helper of its folder) reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A venv under .data/tools/<name>, from a pinned requirements file of the repository. */
export interface TestVenv {
  name: string;
  /** Its requirements file, relative to the repository's root. */
  requirements: string;
  /** The variable that passes the tests the executable they run. */
  variable: string;
  /** That executable, in the venv's bin/. */
  executable: string;
}

export const TEST_VENVS = [
  // the official standardwebhooks receivers, pytest and `build` (our Python package's tests)
  { name: 'python-receivers', requirements: 'e2e/python/requirements.txt', variable: 'TAILSYNC_TEST_PYTHON', executable: 'python' },
  // openapi-python-client and requests-oauthlib: clients of our API we did not write
  { name: 'api-clients', requirements: 'e2e/api-clients/requirements.txt', variable: 'TAILSYNC_API_CLIENTS_PYTHON', executable: 'python' },
  { name: 'schemathesis', requirements: 'e2e/schemathesis/requirements.txt', variable: 'SCHEMATHESIS_BIN', executable: 'schemathesis' },
  { name: 'kafka-consumer', requirements: 'e2e/kafka-consumer/requirements.txt', variable: 'KAFKA_CONSUMER_PYTHON', executable: 'python' },
] as const satisfies readonly TestVenv[];
export type TestVenvName = (typeof TEST_VENVS)[number]['name'];

/**
 * The Nx projects whose tests run a venv's executable (through its variable): in webhook-dispatcher
 * signing-key-rotation.spec.ts, in tools python-wheel.spec.ts; several e2e files.
 */
export const VENVS_BY_PROJECT: Record<string, TestVenvName[]> = {
  e2e: ['python-receivers', 'api-clients', 'schemathesis', 'kafka-consumer'],
  'webhook-dispatcher': ['python-receivers'],
  tools: ['python-receivers'],
};

/** The venvs the given projects' tests use (every project's when none are named), in TEST_VENVS' order. */
export function venvsOf(projects: string[] | undefined): TestVenv[] {
  const names = new Set(Object.entries(VENVS_BY_PROJECT).flatMap(([project, venvs]) => (!projects || projects.includes(project) ? venvs : [])));
  return TEST_VENVS.filter((venv) => names.has(venv.name));
}

/** The venvs whose variable (SCHEMATHESIS_BIN, ...) `source` reads from process.env, in TEST_VENVS' order. */
export function venvsReadIn(source: string): TestVenvName[] {
  return TEST_VENVS.filter(({ variable }) => source.includes(`process.env.${variable}`)).map(({ name }) => name);
}

/**
 * The venvs a test file runs: those it reads, and those read by the modules it imports by a
 * relative path (e2e/src/support/python.ts reads the receivers' venv for several files).
 */
export function venvsReadBy(file: string): TestVenvName[] {
  const read = new Set<string>();
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const source = readFileSync(path, 'utf8');
    for (const name of venvsReadIn(source)) read.add(name);
    for (const [, imported] of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const module = [`${imported}.ts`, `${imported}/index.ts`].map((candidate) => resolve(dirname(path), candidate)).find((candidate) => existsSync(candidate));
      if (module) visit(module);
    }
  };
  visit(resolve(file));
  return TEST_VENVS.filter(({ name }) => read.has(name)).map(({ name }) => name);
}
