import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { findGo } from '../ci/go';

/** A program the tests run that is built from its Go module (served by the Go module proxy). */
export interface GoTool {
  /** The package path of its `main` package. */
  pkg: string;
  version: string;
  /** A module of ours that requires it (as a `tool`), when `go install pkg@version` cannot build it. */
  module?: string;
}

/** Jaeger v2 (OTLP in, query API out): the tracing e2e test's real backend. */
export const JAEGER: GoTool = { pkg: 'github.com/jaegertracing/jaeger/cmd/jaeger', version: 'v1.76.0', module: join(REPO_ROOT, 'tools', 'jaeger') };
/** Prometheus's rule checker: `promtool check rules` over deploy/prometheus. */
export const PROMTOOL: GoTool = { pkg: 'github.com/prometheus/prometheus/cmd/promtool', version: 'v0.316.0' };

/**
 * The tool's executable, built once into `.data/tools/go-bin/<name>@<version>/` (Go's build
 * cache makes a later build quick). Needs Go and the module proxy the first time only.
 */
export function ensureGoTool(tool: GoTool, log: (line: string) => void): string {
  const name = tool.pkg.slice(tool.pkg.lastIndexOf('/') + 1);
  const dir = join(REPO_ROOT, '.data', 'tools', 'go-bin', `${name}@${tool.version}`);
  const bin = join(dir, name);
  if (existsSync(bin)) return bin;
  const t0 = Date.now();
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const go = findGo();
  if (!go) throw new Error(`Go is needed to build ${name} ${tool.version} for the tests (https://go.dev/dl)`);
  const args = tool.module ? ['build', '-o', join(staging, name), tool.pkg] : ['install', `${tool.pkg}@${tool.version}`];
  const run = spawnSync(go, args, { cwd: tool.module ?? REPO_ROOT, env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' }, stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.error || run.status !== 0) {
    throw new Error(`go install ${tool.pkg}@${tool.version} failed (${run.error?.message ?? `exit ${run.status}`}): Go 1.24+ and the Go module proxy are needed`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  log(`${name} ${tool.version} built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return bin;
}
