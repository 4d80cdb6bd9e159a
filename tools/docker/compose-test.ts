/**
 * `npm run test:compose`: the operators' path on a real Docker engine (e2e/compose). Uses the
 * engine that is there or installs and starts one (root on Debian), builds the Compose plugin if
 * missing, builds local stand-ins of the official images unless TAILSYNC_COMPOSE_IMAGES=official,
 * runs the tests and closes with `N passed, N failed`. Not part of `npm test`, so a user without
 * Docker can still run that; `.ci/run` runs both.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { closingReport } from '../test/reports';
import { buildBaseImages, buildNodeImage, NODE_20_RUNTIME } from './base-images';
import { ensureComposePlugin, ensureDockerEngine } from './docker-engine';

const log = (line: string) => process.stdout.write(`[compose-test] ${line}\n`);
const reports = join(REPO_ROOT, '.data', 'compose', 'reports');

/** npm inside the image build trusts what this machine trusts (a TLS-inspecting proxy's CA). */
function stageMachineCertificates(): void {
  const bundle = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt'; // Debian's bundle
  if (existsSync(bundle)) copyFileSync(bundle, join(REPO_ROOT, 'tools', 'docker', 'extra-ca', 'machine.crt'));
}

/**
 * The stand-ins of the official images, and of the base image of the previous release, which the
 * upgrade test builds and runs (e2e/compose/src/upgrade.compose.ts): before 1.0.0, Node 20.
 */
async function localImages(): Promise<Record<string, string>> {
  return { ...(await buildBaseImages(log)), PREVIOUS_NODE_IMAGE: buildNodeImage(NODE_20_RUNTIME, log) };
}

async function main(): Promise<number> {
  const started = Date.now();
  const engine = await ensureDockerEngine(log);
  try {
    ensureComposePlugin(log);
    const images = process.env.TAILSYNC_COMPOSE_IMAGES === 'official' ? {} : await localImages();
    stageMachineCertificates();
    rmSync(reports, { recursive: true, force: true });
    mkdirSync(reports, { recursive: true });
    log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s; running e2e/compose`);
    const jest = spawnSync(process.execPath, [join(REPO_ROOT, 'tools', 'test', 'jest.js'), 'e2e/compose', '--runInBand', ...process.argv.slice(2)], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...images, TAILSYNC_TEST_REPORTS: reports },
    });
    const { text, ok } = closingReport(reports, REPO_ROOT, jest.status);
    log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    process.stdout.write(text);
    return ok ? 0 : 1;
  } finally {
    await engine.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[compose-test] failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
