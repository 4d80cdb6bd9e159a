/**
 * The Python venvs `npm test` installs for the tests, and which projects' tests use each: the
 * runner installs only the venvs of the projects a run selects, and a project of the other lane
 * waits only for its own venvs (the e2e lane's global set-up waits for its four).
 */

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
