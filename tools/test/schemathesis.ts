import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { ensurePythonVenv } from './python-venv';

/**
 * Schemathesis (PyPI), the independent OpenAPI checker of e2e/src/openapi.e2e.ts, in a Python
 * venv under .data/tools. Returns the executable's path.
 */
export function ensureSchemathesis(log: (line: string) => void): string {
  const venv = ensurePythonVenv('schemathesis', join(REPO_ROOT, 'e2e', 'schemathesis', 'requirements.txt'), log);
  return join(venv, 'bin', 'schemathesis');
}
