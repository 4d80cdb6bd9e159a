/**
 * What the compose test needs before its first test: the Compose plugin and the local stand-ins
 * of the official images. `npm run test:compose:prepare` does it alone, so `.ci/run` can do it
 * beside `npm test` and the compose test then starts at once.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { buildBaseImages, buildNodeImage, NODE_20_RUNTIME } from './base-images';
import { ensureComposePlugin } from './docker-engine';

type Log = (line: string) => void;

/** npm inside the image build trusts what this machine trusts (a TLS-inspecting proxy's CA). */
function stageMachineCertificates(): void {
  const bundle = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt'; // Debian's bundle
  if (existsSync(bundle)) copyFileSync(bundle, join(REPO_ROOT, 'tools', 'docker', 'extra-ca', 'machine.crt'));
}

/**
 * The stand-ins of the official images, and of the base image of the previous release, which the
 * upgrade test builds and runs (e2e/compose/src/upgrade.compose.ts): before 1.0.0, Node 20.
 */
async function localImages(log: Log): Promise<Record<string, string>> {
  return { ...(await buildBaseImages(log)), PREVIOUS_NODE_IMAGE: buildNodeImage(NODE_20_RUNTIME, log) };
}

/** On a running engine: the plugin, the images (unless TAILSYNC_COMPOSE_IMAGES=official); returns the images' settings. */
export async function prepareCompose(log: Log): Promise<Record<string, string>> {
  await ensureComposePlugin(log);
  const images = process.env.TAILSYNC_COMPOSE_IMAGES === 'official' ? {} : await localImages(log);
  stageMachineCertificates();
  return images;
}
