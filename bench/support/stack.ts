/**
 * The stack under test: started the way `npm start` starts it (tools/stack: embedded PostgreSQL and
 * Kafka, unless DATABASE_URL / KAFKA_BROKERS name servers, and the three apps: one tail-sync, as
 * many gateways and dispatchers as asked), on the bench's own ports and data directory
 * (.data/bench, wiped on every run); or an external stack named by
 * BASE_URL + KAFKA_BROKERS (+ DATABASE_URL, + ADMIN_TOKEN to create service accounts).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { kafkaConnection, type KafkaSettings } from '@tailsync/service-kit';
import { AppName, AppProcess, grpcEnv, localSecrets, REPO_ROOT, spawnApp, startInfrastructure, waitForHttp } from '@tailsync/stack';
import { appCopies, Copies, portsOfCopies } from './app-copies';
import { childPids, ProcessGroup } from './cpu';

export interface BenchStack {
  mode: 'local' | 'external';
  /** The first gateway copy. */
  baseUrl: string;
  /** Every gateway copy: the HTTP workloads spread their connections over them. */
  gatewayUrls: string[];
  copies: Copies;
  /** The bench's own Kafka client settings (strings, so helper processes get them too). */
  kafka: KafkaSettings;
  databaseUrl?: string;
  adminToken: string;
  kafkaVersion: string;
  postgresVersion: string;
  /** Processes whose CPU use is sampled during each workload. */
  groups: ProcessGroup[];
  /** Pids of the bench's own helper processes (receiver, baseline servers): counted as the load generator. */
  helperPids: Set<number>;
  logDir?: string;
  /** Stops the apps (cleanly: profiles are written on exit) and the infrastructure the bench started. */
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Starts the apps under `--cpu-prof` with their profiles written here. */
  profileDir?: string;
  /** How many copies of the gateway and of the dispatcher to start. */
  copies: Copies;
  log: (line: string) => void;
}

export const BENCH_DATA_DIR = join(REPO_ROOT, '.data', 'bench');

const envPort = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/**
 * Ports of the bench stack: away from `npm start` (3000-3002, 9092, 54329) and `npm test` (13000-13002,
 * 19092 and 19292, 15432-15433), and below the ephemeral range (32768-60999 on Linux), where an outgoing connection
 * can hold a port a server then fails to listen on.
 */
export const BENCH_PORTS = {
  gateway: envPort('BENCH_GATEWAY_PORT', 26000),
  'tail-sync': envPort('BENCH_GATEWAY_PORT', 26000) + 1,
  'webhook-dispatcher': envPort('BENCH_GATEWAY_PORT', 26000) + 2,
  kafka: envPort('BENCH_KAFKA_PORT', 26092),
  postgres: envPort('BENCH_POSTGRES_PORT', 26432),
} as const;

export async function startBenchStack(opts: StackOptions): Promise<BenchStack> {
  const helperPids = new Set<number>([process.pid]);
  const benchGroup: ProcessGroup = { name: 'bench', pids: () => [...helperPids] };
  if (process.env.BASE_URL) return externalStack(opts, benchGroup, helperPids);

  const dataDir = BENCH_DATA_DIR;
  await stopLeftovers(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const infra = await startInfrastructure({
    dataDir,
    kafkaPort: BENCH_PORTS.kafka,
    postgresPort: BENCH_PORTS.postgres,
    database: 'tailsync_bench',
    log: opts.log,
  });
  const secrets = localSecrets(dataDir);
  const ports = {
    gateway: BENCH_PORTS.gateway,
    'tail-sync': BENCH_PORTS['tail-sync'],
    'webhook-dispatcher': BENCH_PORTS['webhook-dispatcher'],
    management: BENCH_PORTS.gateway + 100,
    tailSyncGrpc: BENCH_PORTS.gateway + 51,
    dispatcherGrpc: BENCH_PORTS.gateway + 52,
  };
  const copies = appCopies(opts.copies, ports);
  const gatewayUrls = copies.filter((c) => c.name === 'gateway').map((c) => `http://127.0.0.1:${c.env.PORT}`);
  const baseUrl = gatewayUrls[0];
  const env: Record<string, string> = {
    ...infra.env,
    ...secrets,
    TAIL_SYNC_HTTP_PORT: String(ports['tail-sync']),
    // The gateways balance over every dispatcher copy.
    ...grpcEnv({ 'tail-sync': [ports.tailSyncGrpc], 'webhook-dispatcher': portsOfCopies(ports.dispatcherGrpc, opts.copies['webhook-dispatcher']) }),
    PUBLIC_BASE_URL: baseUrl,
    // The bench's webhook receiver listens on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // The bench measures capacity, not the per-service-account rate limit (one account drives W1/W3).
    RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? '100000000',
  };
  const logDir = join(dataDir, 'logs');
  const apps = copies.map((c) =>
    opts.profileDir ? spawnProfiledApp(c.name, c.instance, { ...env, ...c.env }, logDir, opts.profileDir) : spawnApp(c.name, { ...env, ...c.env }, logDir, c.instance),
  );
  const stop = async () => {
    await Promise.all(apps.map((a) => a.stop(15_000)));
    await infra.stop();
  };
  try {
    const ready = (name: AppName) => copies.filter((c) => c.name === name).map((c) => waitForHttp(c.readyUrl, 120_000, apps));
    await Promise.all([...ready('tail-sync'), ...ready('webhook-dispatcher')]);
    await Promise.all(ready('gateway'));
  } catch (error) {
    await stop();
    throw error;
  }
  // Every copy's CPU counts for its app.
  const pidsOf = (name: AppName) => () => apps.filter((a) => a.name === name).flatMap((a) => (a.child.pid ? [a.child.pid] : []));
  const groups: ProcessGroup[] = [
    { name: 'gateway', pids: pidsOf('gateway') },
    { name: 'tail-sync', pids: pidsOf('tail-sync') },
    { name: 'dispatcher', pids: pidsOf('webhook-dispatcher') },
  ];
  const kafkaPidFile = join(dataDir, 'kafka', 'kafka.pid');
  if (!process.env.KAFKA_BROKERS) groups.push({ name: 'kafka', pids: () => readPid(kafkaPidFile) });
  const postmasterPidFile = join(dataDir, 'postgres', 'cluster', 'postmaster.pid');
  if (!process.env.DATABASE_URL) {
    groups.push({
      name: 'postgres',
      pids: () => readPid(postmasterPidFile).flatMap((pid) => [pid, ...childPids(pid)]),
    });
  }
  groups.push(benchGroup);
  return {
    mode: 'local',
    baseUrl,
    gatewayUrls,
    copies: opts.copies,
    kafka: kafkaSettingsOf(env),
    databaseUrl: env.DATABASE_URL,
    adminToken: secrets.ADMIN_TOKEN,
    kafkaVersion: infra.kafkaVersion,
    postgresVersion: infra.postgresVersion,
    groups,
    helperPids,
    logDir,
    stop,
  };
}

async function externalStack(opts: StackOptions, benchGroup: ProcessGroup, helperPids: Set<number>): Promise<BenchStack> {
  const baseUrl = (process.env.BASE_URL as string).replace(/\/+$/, '');
  if (!process.env.KAFKA_BROKERS) throw new Error('BASE_URL is set: set KAFKA_BROKERS too (the bench produces the W4 events)');
  if (!process.env.ADMIN_TOKEN) throw new Error('BASE_URL is set: set ADMIN_TOKEN too (the bench creates its own service accounts)');
  if (opts.copies.gateway !== 1 || opts.copies['webhook-dispatcher'] !== 1) throw new Error('BASE_URL is set: its copies are the ones running there (no --gateways, --dispatchers)');
  let postgresVersion = 'unknown (no DATABASE_URL)';
  if (process.env.DATABASE_URL) {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      postgresVersion = (await client.query<{ server_version: string }>('show server_version')).rows[0].server_version;
    } finally {
      await client.end();
    }
  }
  await waitForHttp(`${baseUrl}/health/ready`, 30_000);
  opts.log(`external stack: ${baseUrl}, Kafka ${process.env.KAFKA_BROKERS}${process.env.DATABASE_URL ? ', PostgreSQL from DATABASE_URL' : ''}`);
  return {
    mode: 'external',
    baseUrl,
    gatewayUrls: [baseUrl],
    copies: opts.copies,
    kafka: kafkaSettingsOf(process.env),
    databaseUrl: process.env.DATABASE_URL,
    adminToken: process.env.ADMIN_TOKEN,
    kafkaVersion: 'unknown (external broker)',
    postgresVersion,
    groups: [benchGroup],
    helperPids,
    stop: async () => undefined,
  };
}

/** The KAFKA_* client settings among `env`, checked once here so a bad one stops the bench before it starts. */
function kafkaSettingsOf(env: NodeJS.ProcessEnv | Record<string, string>): KafkaSettings {
  const settings: KafkaSettings = Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('KAFKA_')));
  kafkaConnection(settings);
  return settings;
}

function readPid(file: string): number[] {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0].trim());
    return pid > 0 ? [pid] : [];
  } catch {
    return [];
  }
}

async function stopLeftovers(dataDir: string): Promise<void> {
  // A bench run killed earlier can leave its servers running on this data directory.
  // The launchers' own clean-up (not exported by @tailsync/stack), as `npm test` uses it.
  const { stopOrphanedPostgres, stopOrphanedBroker } = await import('@tailsync/tools/testing');
  await Promise.all([stopOrphanedPostgres(join(dataDir, 'postgres')), stopOrphanedBroker(join(dataDir, 'kafka'))]);
}

/**
 * tools/stack's spawnApp with the V8 CPU profiler on (`--cpu-prof` cannot go through NODE_OPTIONS)
 * and a preload that turns Nest's re-raised shutdown signal into a normal exit, so the profile is
 * written when the app is stopped.
 */
function spawnProfiledApp(name: AppName, instance: string, env: Record<string, string>, logDir: string, profileDir: string): AppProcess {
  mkdirSync(profileDir, { recursive: true });
  return spawnApp(name, env, logDir, instance, [
    '--cpu-prof',
    '--cpu-prof-dir',
    profileDir,
    '--cpu-prof-name',
    `${instance}.${Date.now()}.cpuprofile`,
    '-r',
    join(__dirname, 'profile-exit.js'),
  ]);
}
