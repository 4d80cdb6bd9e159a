/**
 * A Docker engine and the `docker compose` plugin for the compose test: uses what is there, and
 * where it is not, installs and starts it the way a root user on Debian would (apt's docker.io,
 * `dockerd` started by hand where there is no init system, Compose built from its Go module).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, mkdirSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../stack/infrastructure';
import { buildGoTool } from '../test/go-tool-build';
import { COMPOSE } from '../test/go-tools';
import { aptInstall } from './shell';

const ENGINE_START_TIMEOUT_MS = 60_000;

type Log = (line: string) => void;

export interface DockerEngine {
  /** Stops the daemon if this process started it; leaves a daemon that was already running. */
  stop(): Promise<void>;
}

const answers = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 }).status === 0;

export async function ensureDockerEngine(log: Log): Promise<DockerEngine> {
  if (answers('docker', ['info'])) return { stop: async () => undefined };
  const isRoot = process.getuid?.() === 0;
  if (!answers('dockerd', ['--version'])) {
    if (!isRoot) throw new Error('No Docker engine answers and this user cannot install one: install Docker, or run as root on Debian');
    log("installing Debian's docker.io (apt)");
    aptInstall(['docker.io']);
  }
  if (!isRoot) throw new Error('The Docker daemon is installed but not running, and only root can start it here');
  const logDir = join(REPO_ROOT, '.data', 'docker');
  mkdirSync(logDir, { recursive: true });
  const out = openSync(join(logDir, 'dockerd.log'), 'a');
  const daemon = spawn('dockerd', [], { detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  daemon.unref();
  log(`started dockerd (pid ${daemon.pid}, log .data/docker/dockerd.log)`);
  const deadline = Date.now() + ENGINE_START_TIMEOUT_MS;
  while (!answers('docker', ['info'])) {
    if (daemon.exitCode !== null || Date.now() > deadline) throw new Error('dockerd did not come up: see .data/docker/dockerd.log');
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    stop: async () => {
      if (daemon.exitCode !== null) return;
      const exited = new Promise((r) => daemon.once('exit', r));
      daemon.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    },
  };
}

/** `docker compose` as the CLI finds it; built from the pinned Go module when missing (go-tools.ts). */
export async function ensureComposePlugin(log: Log): Promise<void> {
  if (answers('docker', ['compose', 'version'])) return;
  log(`the docker compose plugin ${COMPOSE.version}: built from its Go module unless already built on this machine`);
  const outcome = await buildGoTool(COMPOSE, { niceness: 0 });
  if (outcome.state === 'failed') throw new Error(outcome.report);
  const plugins = join(process.env.DOCKER_CONFIG ?? join(homedir(), '.docker'), 'cli-plugins');
  mkdirSync(plugins, { recursive: true });
  copyFileSync(outcome.path, join(plugins, 'docker-compose'));
  chmodSync(join(plugins, 'docker-compose'), 0o755);
  if (!answers('docker', ['compose', 'version'])) {
    throw new Error(`built docker compose, but \`docker compose version\` still fails (plugin dir ${plugins})`);
  }
}
