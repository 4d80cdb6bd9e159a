import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Gauge } from 'prom-client';
import { metricsRegistry } from '../observability/metrics';

/** What a running process was built from: `GET /Version`'s `build` and the `tailsync_build_info` metric. */
export interface BuildInfo {
  /** The release (semver, `CHANGELOG.md`) the image was built as, or the checkout's package version. */
  release: string;
  /** The source commit the image was built from; null outside an image. */
  revision: string | null;
  /** When the image was built (RFC 3339); null outside an image. */
  created: string | null;
  /** The Node.js runtime, e.g. `v24.21.0`. */
  node: string;
}

const ROOT_PACKAGE = join(__dirname, '..', '..', '..', '..', 'package.json');

/**
 * The image's build arguments become these variables (Dockerfile); a process started from a
 * checkout (`npm start`, tests) reports the version in package.json.
 */
export function readBuildInfo(env: NodeJS.ProcessEnv = process.env): BuildInfo {
  return {
    release: env.TAILSYNC_VERSION || (JSON.parse(readFileSync(ROOT_PACKAGE, 'utf8')) as { version: string }).version,
    revision: env.TAILSYNC_REVISION || null,
    created: env.TAILSYNC_CREATED || null,
    node: process.version,
  };
}

export const buildInfo: BuildInfo = readBuildInfo();

// The Prometheus convention for build facts: a gauge at 1 whose labels carry them.
new Gauge({
  name: 'tailsync_build_info',
  help: 'The release, source revision and Node.js runtime this process runs (always 1)',
  labelNames: ['release', 'revision', 'node'],
  registers: [metricsRegistry],
}).set({ release: buildInfo.release, revision: buildInfo.revision ?? '', node: buildInfo.node }, 1);
