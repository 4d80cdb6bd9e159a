import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { ensurePythonVenv, venvBin } from './python-venv';

/**
 * Schemathesis (PyPI), the independent OpenAPI checker of e2e/src/openapi.e2e.ts, pinned in
 * e2e/schemathesis/requirements.txt. Resolves to the executable's path.
 */
export async function ensureSchemathesis(log: (line: string) => void): Promise<string> {
  await ensurePythonVenv('schemathesis', join(REPO_ROOT, 'e2e', 'schemathesis', 'requirements.txt'), log);
  return schemathesisBin();
}

export function schemathesisBin(): string {
  return venvBin('schemathesis', 'schemathesis');
}
