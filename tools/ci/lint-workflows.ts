/**
 * `npm run lint:workflows`: actionlint (a Go module, pinned) over .github/workflows, built into
 * .data/tools on first use. Needs Go; prints actionlint's findings and exits non-zero on any.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { findGo } from './go';

const ACTIONLINT = 'github.com/rhysd/actionlint/cmd/actionlint@v1.7.7';
const bin = join(REPO_ROOT, '.data', 'tools', 'go-bin');
const actionlint = join(bin, 'actionlint');

if (!existsSync(actionlint)) {
  const go = findGo();
  if (!go) {
    process.stderr.write('lint:workflows needs Go to build actionlint (https://go.dev/dl)\n');
    process.exit(1);
  }
  const built = spawnSync(go, ['install', ACTIONLINT], { stdio: 'inherit', env: { ...process.env, GOBIN: bin } });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const lint = spawnSync(actionlint, ['-color=false'], { cwd: REPO_ROOT, stdio: 'inherit' });
process.stdout.write(lint.status === 0 ? 'actionlint: .github/workflows clean\n' : '');
process.exit(lint.status ?? 1);
