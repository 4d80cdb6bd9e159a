import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newServiceKeys } from '@tailsync/service-kit';
// eslint-disable-next-line @nx/enforce-module-boundaries -- an .env file written as the CLI writes one
import { envFileValue } from '../../../../tools/stack/env-file-value';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

export interface ComposeResult {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * The operators' compose stack as the test runs it: the repository's docker-compose.yml, the
 * PostgreSQL-store override unless TAILSYNC_COMPOSE_STORE=esdb (no EventStoreDB image here; with
 * EVENTSTORE_CERTS_DIR also the secure-store override), and the test's receiver; settings in an
 * .env file as an operator writes one.
 */
export class ComposeProject {
  readonly name = process.env.TAILSYNC_COMPOSE_PROJECT ?? 'tailsync-compose-test';
  readonly settings: Record<string, string>;
  private readonly files: string[];

  constructor(private readonly dir = join(REPO_ROOT, '.data', 'compose')) {
    mkdirSync(dir, { recursive: true });
    const images = Object.fromEntries(
      ['NODE_IMAGE', 'KAFKA_IMAGE', 'POSTGRES_IMAGE', 'EVENTSTORE_IMAGE', 'EVENTSTORE_DATA_DIR', 'EVENTSTORE_CERTS_DIR', 'EVENTSTORE_USER', 'EVENTSTORE_PASSWORD'].flatMap((k) => (process.env[k] ? [[k, process.env[k] as string]] : [])),
    );
    this.settings = {
      ADMIN_TOKEN: randomBytes(24).toString('hex'),
      JWT_SECRET: randomBytes(32).toString('hex'),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      ...newServiceKeys(),
      POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
      GATEWAY_PORT: process.env.COMPOSE_TEST_GATEWAY_PORT ?? '23000',
      KAFKA_EXTERNAL_PORT: process.env.COMPOSE_TEST_KAFKA_PORT ?? '29094',
      RECEIVER_PORT: process.env.COMPOSE_TEST_RECEIVER_PORT ?? '28080',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true', // the receiver is a container on the compose network
      ...images,
    };
    this.files = [
      'docker-compose.yml',
      ...(process.env.TAILSYNC_COMPOSE_STORE === 'esdb' ? [] : ['docker-compose.postgres-store.yml']),
      // Certificates given: the store runs secure (the operators-stack workflow).
      ...(process.env.TAILSYNC_COMPOSE_STORE === 'esdb' && process.env.EVENTSTORE_CERTS_DIR ? ['docker-compose.eventstore-secure.yml'] : []),
      'e2e/compose/receiver.compose.yml',
    ];
    this.writeEnvFile('.env', this.settings);
  }

  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.settings.GATEWAY_PORT}`;
  }

  get kafkaBrokers(): string {
    return `127.0.0.1:${this.settings.KAFKA_EXTERNAL_PORT}`;
  }

  get receiverUrl(): string {
    return `http://127.0.0.1:${this.settings.RECEIVER_PORT}`;
  }

  /** Writes an env file beside the test's own and returns its path. */
  writeEnvFile(name: string, settings: Record<string, string>): string {
    const file = join(this.dir, name);
    writeFileSync(file, Object.entries(settings).map(([k, v]) => `${k}=${envFileValue(v)}`).join('\n') + '\n', { mode: 0o600 });
    return file;
  }

  /** `docker compose <args>` on this project, with the given env file (default: the test's). */
  run(args: string[], envFile = join(this.dir, '.env'), timeoutMs = 600_000): ComposeResult {
    // The operator's shell would override the env file: keep the test's own settings out of it.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k in this.settings)));
    const result = spawnSync(
      'docker',
      ['compose', '-p', this.name, '--project-directory', REPO_ROOT, '--env-file', envFile, ...this.files.flatMap((f) => ['-f', join(REPO_ROOT, f)]), ...args],
      { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
    );
    return { status: result.status ?? -1, stdout: result.stdout ?? '', stderr: `${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
  }

  /** Like run, but throws with the command's output when it fails. */
  must(args: string[], timeoutMs?: number): string {
    const result = this.run(args, undefined, timeoutMs);
    if (result.status !== 0) throw new Error(`docker compose ${args.join(' ')} failed (${result.status}):\n${result.stderr.slice(-4000)}`);
    return result.stdout;
  }

  containerOf(service: string): string {
    return this.must(['ps', '-q', service]).trim();
  }

  /** State of a service's container as `docker inspect` reports it. */
  state(service: string): { pid: number; restartCount: number; status: string; health: string } {
    const id = this.containerOf(service);
    const out = docker(['inspect', '--format', '{{.State.Pid}} {{.RestartCount}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}', id]);
    const [pid, restartCount, status, health] = out.trim().split(' ');
    return { pid: Number(pid), restartCount: Number(restartCount), status, health: health ?? '' };
  }

  /**
   * SIGKILL to the service's main process from outside, as a crash or the kernel's OOM killer
   * would: `docker compose kill` is an operator's stop, which Docker deliberately never restarts.
   * A container with the host's PID namespace sends it, so the test needs no root of its own.
   */
  crash(service: string): void {
    const { pid } = this.state(service);
    docker(['run', '--rm', '--pid=host', '--user=root', this.settings.NODE_IMAGE ?? 'node:20.20-bookworm-slim', 'sh', '-c', `kill -9 ${pid}`]);
  }
}

export function docker(args: string[]): string {
  const result = spawnSync('docker', args, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`docker ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}
