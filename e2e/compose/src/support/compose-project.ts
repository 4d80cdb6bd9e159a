import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newServiceKeys } from '@tailsync/service-kit';
// An .env file written as the CLI writes one.
import { envFileValue } from '@tailsync/stack';

export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

export interface ComposeResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** The operators' secrets, by the names of the compose file's secret files. */
export interface StackSecrets {
  admin_token: string;
  jwt_secret: string;
  webhook_secret_key: string;
  /** PostgreSQL's admin (its bootstrap user), which only postgres-roles uses. */
  postgres_password: string;
  /** Each app's own database role. */
  postgres_gateway_password: string;
  postgres_tail_sync_password: string;
  postgres_webhook_dispatcher_password: string;
  /** The gateway's half of the key pair that signs its calls to the services (`npm run cli -- service-keys`). */
  service_signing_key: string;
  /** The services' half. */
  service_verify_key: string;
  /** Kafka's principals: the broker's own login (admin) and kafka-init's, then one per client. */
  kafka_admin_password: string;
  kafka_tail_sync_password: string;
  kafka_webhook_dispatcher_password: string;
  kafka_product_password: string;
  kafka_reader_password: string;
  /** tail-sync's connection to the secure EventStoreDB, its user and password in it. */
  eventstore_connection_string: string;
}

/** The Kafka principals a client outside the stack connects as, over the EXTERNAL listener. */
export type ExternalPrincipal = 'admin' | 'product' | 'reader';

/** How a checkout's compose files take the secrets: the settings that give them, files written as needed. */
export type SecretSettings = (secrets: StackSecrets, dir: string) => Record<string, string>;

/** This checkout's way (1.0.0 on): one file per secret in TAILSYNC_SECRETS_DIR, the directory private, the files readable. */
export const secretFiles: SecretSettings = (secrets, dir) => {
  const secretsDir = join(dir, 'secrets');
  rmSync(secretsDir, { recursive: true, force: true });
  mkdirSync(secretsDir, { recursive: true });
  chmodSync(secretsDir, 0o700);
  for (const [name, value] of Object.entries(secrets)) writeFileSync(join(secretsDir, name), `${value}\n`, { mode: 0o644 });
  return { TAILSYNC_SECRETS_DIR: secretsDir };
};

/**
 * tail-sync's connection to the secure store as an operator writes it: EVENTSTORE_USER and
 * EVENTSTORE_PASSWORD (a fresh node's built-in admin by default), TLS trusting the mounted CA.
 */
function eventStoreConnectionString(): string {
  const user = encodeURIComponent(process.env.EVENTSTORE_USER ?? 'admin');
  const password = encodeURIComponent(process.env.EVENTSTORE_PASSWORD ?? 'changeit');
  return `esdb://${user}:${password}@eventstore:2113?tls=true&tlsCAFile=/etc/tailsync/eventstore-ca/ca.crt`;
}

function serviceKeySecrets(): Pick<StackSecrets, 'service_signing_key' | 'service_verify_key'> {
  const keys = newServiceKeys();
  return { service_signing_key: keys.SERVICE_SIGNING_KEY, service_verify_key: keys.SERVICE_VERIFY_KEY };
}

export interface ComposeProjectOptions {
  /** The checkout whose compose files run (default: this one). */
  checkout?: string;
  name?: string;
  secretSettings?: SecretSettings;
  /** Settings of this stack beyond the shared ones (e.g. the images' version). */
  settings?: Record<string, string>;
  /** The secrets of a stack this one takes over (an upgrade keeps them). */
  secrets?: StackSecrets;
  /** Where its .env and secret files go, under .data/compose (default: the project's name). */
  settingsDir?: string;
  /** Override files an operator adds after the stack's own (e.g. `docker-compose.kafka-cluster.yml`). */
  overrides?: string[];
}

/**
 * The operators' compose stack as the test runs it: a checkout's docker-compose.yml, the
 * PostgreSQL-store override unless TAILSYNC_COMPOSE_STORE=esdb (no EventStoreDB image here; the
 * store then runs secure, with EVENTSTORE_CERTS_DIR's certificates), and the test's receiver; settings in an
 * .env file as an operator writes one.
 */
export class ComposeProject {
  readonly name: string;
  readonly settings: Record<string, string>;
  readonly secrets: StackSecrets;
  readonly checkout: string;
  private readonly files: string[];
  private readonly dir: string;

  constructor(options: ComposeProjectOptions = {}) {
    this.checkout = options.checkout ?? REPO_ROOT;
    this.name = options.name ?? process.env.TAILSYNC_COMPOSE_PROJECT ?? 'tailsync-compose-test';
    this.dir = join(REPO_ROOT, '.data', 'compose', options.settingsDir ?? this.name);
    mkdirSync(this.dir, { recursive: true });
    const images = Object.fromEntries(
      ['NODE_IMAGE', 'KAFKA_IMAGE', 'POSTGRES_IMAGE', 'EVENTSTORE_IMAGE', 'EVENTSTORE_DATA_DIR', 'EVENTSTORE_CERTS_DIR'].flatMap((k) => (process.env[k] ? [[k, process.env[k] as string]] : [])),
    );
    this.secrets = options.secrets ?? {
      admin_token: randomBytes(24).toString('hex'),
      jwt_secret: randomBytes(32).toString('hex'),
      webhook_secret_key: randomBytes(32).toString('base64'),
      postgres_password: randomBytes(16).toString('hex'),
      postgres_gateway_password: randomBytes(16).toString('hex'),
      postgres_tail_sync_password: randomBytes(16).toString('hex'),
      postgres_webhook_dispatcher_password: randomBytes(16).toString('hex'),
      ...serviceKeySecrets(),
      kafka_admin_password: randomBytes(24).toString('hex'),
      kafka_tail_sync_password: randomBytes(24).toString('hex'),
      kafka_webhook_dispatcher_password: randomBytes(24).toString('hex'),
      kafka_product_password: randomBytes(24).toString('hex'),
      kafka_reader_password: randomBytes(24).toString('hex'),
      eventstore_connection_string: eventStoreConnectionString(),
    };
    this.settings = {
      GATEWAY_PORT: process.env.COMPOSE_TEST_GATEWAY_PORT ?? '23000',
      KAFKA_EXTERNAL_PORT: process.env.COMPOSE_TEST_KAFKA_PORT ?? '29094',
      RECEIVER_PORT: process.env.COMPOSE_TEST_RECEIVER_PORT ?? '28080',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true', // the receiver is a container on the compose network
      ...images,
      ...(options.secretSettings ?? secretFiles)(this.secrets, this.dir),
      ...options.settings,
    };
    this.files = [
      'docker-compose.yml',
      ...(process.env.TAILSYNC_COMPOSE_STORE === 'esdb' ? [] : ['docker-compose.postgres-store.yml']),
      // The operator's certificate given: TLS on Kafka's EXTERNAL listener.
      ...(this.settings.KAFKA_TLS_DIR ? ['docker-compose.kafka-tls.yml'] : []),
      ...(options.overrides ?? []),
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

  /**
   * Client settings (KAFKA_*) of a principal on the EXTERNAL listener, as a client outside the
   * stack has them: SASL/SCRAM, and TLS trusting `caFile` when the stack runs the TLS override.
   */
  externalKafka(principal: ExternalPrincipal, caFile?: string): Record<string, string> {
    return {
      KAFKA_BROKERS: this.kafkaBrokers,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: principal,
      KAFKA_SASL_PASSWORD: this.secrets[`kafka_${principal}_password`],
      ...(caFile ? { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: caFile } : {}),
    };
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
      ['compose', '-p', this.name, '--project-directory', this.checkout, '--env-file', envFile, ...this.files.flatMap((f) => ['-f', join(this.checkout, f)]), ...args],
      { cwd: this.checkout, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
    );
    return { status: result.status ?? -1, stdout: result.stdout ?? '', stderr: `${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
  }

  /** Like run, but throws with the command's output when it fails. */
  must(args: string[], timeoutMs?: number): string {
    const result = this.run(args, undefined, timeoutMs);
    if (result.status !== 0) throw new Error(`docker compose ${args.join(' ')} failed (${result.status}):\n${result.stderr.slice(-4000)}`);
    return result.stdout;
  }

  /** `up -d --wait`; when a service does not come up healthy, the error ends with each app's last log lines. */
  upAndWait(timeoutSeconds = 300): void {
    const result = this.run(['up', '-d', '--wait', '--wait-timeout', String(timeoutSeconds)], undefined, (timeoutSeconds + 300) * 1000);
    if (result.status === 0) return;
    const logs = this.run(['logs', '--tail', '30', '--no-color']).stdout;
    throw new Error(`docker compose up --wait failed (${result.status}):\n${result.stderr.slice(-2000)}\n--- last log lines ---\n${logs.slice(-12_000)}`);
  }

  containerOf(service: string): string {
    return this.must(['ps', '-aq', service]).trim();
  }

  /** State of a service's container as `docker inspect` reports it. */
  state(service: string): { pid: number; restartCount: number; status: string; health: string; exitCode: number } {
    const id = this.containerOf(service);
    const out = docker(['inspect', '--format', '{{.State.Pid}} {{.RestartCount}} {{.State.Status}} {{.State.ExitCode}} {{if .State.Health}}{{.State.Health.Status}}{{end}}', id]);
    const [pid, restartCount, status, exitCode, health] = out.trim().split(' ');
    return { pid: Number(pid), restartCount: Number(restartCount), status, health: health ?? '', exitCode: Number(exitCode) };
  }

  /** The address of a service's (first) container on the compose network: a private range this host reaches. */
  address(service: string): string {
    return docker(['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}', this.containerOf(service).split('\n')[0]]).trim().split(' ')[0];
  }

  /** `docker inspect` of a service's container, parsed. */
  inspect(service: string): ContainerInspect {
    return (JSON.parse(docker(['inspect', this.containerOf(service)])) as ContainerInspect[])[0];
  }

  /**
   * SIGKILL to the service's main process from outside, as a crash or the kernel's OOM killer
   * would: `docker compose kill` is an operator's stop, which Docker deliberately never restarts.
   * A container with the host's PID namespace sends it, so the test needs no root of its own.
   */
  crash(service: string): void {
    const { pid } = this.state(service);
    docker(['run', '--rm', '--pid=host', '--user=root', this.settings.NODE_IMAGE ?? 'node:24.21-bookworm-slim', 'sh', '-c', `kill -9 ${pid}`]);
  }
}

/** The parts of `docker inspect` the tests read. */
export interface ContainerInspect {
  Config: { Env: string[]; Image: string; Labels: Record<string, string> };
  State: { StartedAt: string };
  HostConfig: { ReadonlyRootfs: boolean; CapDrop: string[] | null; CapAdd: string[] | null; SecurityOpt: string[] | null; Memory: number };
  Image: string;
}

export function docker(args: string[]): string {
  const result = spawnSync('docker', args, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`docker ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** `docker <args>` without holding the event loop: a test's load goes on while it runs. */
export async function dockerAsync(args: string[], timeoutMs = 180_000): Promise<string> {
  const { stdout } = await promisify(execFile)('docker', args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}
