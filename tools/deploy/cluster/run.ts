/**
 * `npm run test:kubernetes`: the Helm chart installed and upgraded on a real kube-apiserver
 * (tools/deploy/cluster/*.cluster.ts), closing with `N passed, N failed`. Not part of `npm test`:
 * the API server's first build on a new machine takes longer than the rest of the suite's tools
 * together, so .ci/run builds it beside the suite (`npm run test:kubernetes:prepare`) and runs this
 * after it. Builds what is missing itself when run alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../stack/infrastructure';
import { closingReport } from '../../test/reports';

const reports = join(REPO_ROOT, '.data', 'kubernetes', 'reports');
const started = Date.now();
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const jest = spawnSync(process.execPath, [join(REPO_ROOT, 'tools', 'test', 'jest.js'), 'tools/deploy/cluster', '--runInBand', ...process.argv.slice(2)], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  env: { ...process.env, TAILSYNC_TEST_REPORTS: reports },
});
const { text, ok } = closingReport(reports, REPO_ROOT, jest.status);
process.stdout.write(`[kubernetes-test] took ${((Date.now() - started) / 1000).toFixed(1)} s\n${text}`);
process.exit(ok ? 0 : 1);
