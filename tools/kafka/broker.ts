/**
 * A real single-node Apache Kafka broker (KRaft, broker+controller in one JVM) for the local
 * stack and the test suite, run from Maven Central artifacts: no Docker, no tarball download.
 * The jars come from kafka-jars.ts, the configuration from kraft-config.ts; the JVM runs under
 * the process supervisor that PostgreSQL shares (tools/process). See tools/kafka/README.md.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { KafkaConnection } from '@tailsync/service-kit';
import { ProcessRecord, stopStaleProcess } from '../process/stale-process';
import { startSupervisedProcess } from '../process/supervised-process';
import { brokerReadinessProbe } from './broker-readiness';
import { ensureKafkaJars, javaArgs, KAFKA_VERSION } from './kafka-jars';
import { type BrokerSecurity, kraftConfigPaths, LOCAL_ADMIN, writeKraftConfig } from './kraft-config';
import { upsertScramUsers } from './scram-credentials';

export interface KafkaBrokerOptions {
  /** Where config, KRaft metadata + topic data, cluster id and the default log file live. */
  dataDir: string;
  /** Client (PLAINTEXT) port on 127.0.0.1. Default 9092. */
  port?: number;
  /** KRaft controller port on 127.0.0.1. Default port + 1. */
  controllerPort?: number;
  /** Receives each line the broker prints. Default: appended to <dataDir>/kafka.log. */
  log?: (line: string) => void;
  /** Default PLAINTEXT, no ACLs. */
  security?: BrokerSecurity;
}

export interface RunningKafka {
  /** Bootstrap servers, e.g. "127.0.0.1:9092". */
  brokers: string;
  /** How the `admin` super user connects (with SASL); PLAINTEXT otherwise. */
  admin: KafkaConnection;
  /** Apache Kafka version, "3.9.1". */
  version: string;
  /** Pid of the broker JVM. */
  pid: number;
  /** SIGTERM (clean shutdown), up to 20 s, then SIGKILL. Idempotent. */
  stop(): Promise<void>;
}

const JVM_FLAGS = ['-Xms128m', '-Xmx512m', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExplicitGCInvokesConcurrent', '-Djava.awt.headless=true'];

/** The broker on `dataDir`, as the supervisor and a later run know it. */
function brokerRecord(dataDir: string, name = `Kafka ${KAFKA_VERSION}`): ProcessRecord {
  return {
    name,
    pidFile: path.join(dataDir, 'kafka.pid'),
    identity: ['kafka.Kafka', kraftConfigPaths(dataDir).propsFile],
    stop: { signal: 'SIGTERM', graceMs: 20_000 },
  };
}

/** Starts the broker and resolves once it serves metadata and the group coordinator is up. */
export async function startKafka(opts: KafkaBrokerOptions): Promise<RunningKafka> {
  const port = opts.port ?? 9092;
  const controllerPort = opts.controllerPort ?? port + 1;
  const dataDir = path.resolve(opts.dataDir);
  const brokers = `127.0.0.1:${port}`;
  const record = brokerRecord(dataDir, `Kafka ${KAFKA_VERSION} on ${brokers}`);

  const libs = await ensureKafkaJars();
  fs.mkdirSync(dataDir, { recursive: true });
  await stopStaleProcess(record);
  await assertPortFree(port, 'client');
  await assertPortFree(controllerPort, 'controller');
  const security = opts.security ?? { kind: 'plaintext' };
  const admin = adminConnection(brokers, security);
  const start = async (startSecurity: BrokerSecurity, probeAs: KafkaConnection) => {
    const config = await writeKraftConfig({ dataDir, libs, port, controllerPort, security: startSecurity });
    return startSupervisedProcess({
      ...record,
      command: 'java',
      args: javaArgs(libs, JVM_FLAGS, 'kafka.Kafka', [config.propsFile]),
      cwd: dataDir,
      output: opts.log ?? { file: path.join(dataDir, 'kafka.log') },
      ready: { probe: brokerReadinessProbe(probeAs), intervalMs: 250, timeoutMs: 90_000 },
      signalOnParentExit: 'SIGKILL',
    });
  };
  if (security.kind === 'sasl' && !adminCredentialsCurrent(dataDir, security.adminPassword)) {
    // Storage formatted without these admin credentials (before SASL, or with another password):
    // set them once on a PLAINTEXT start, since the broker logs in with them on its own listener.
    const plaintext = await start({ kind: 'plaintext' }, { brokers: [brokers] });
    try {
      await upsertScramUsers({ brokers: [brokers] }, [{ name: LOCAL_ADMIN, password: security.adminPassword }]);
    } finally {
      await plaintext.stop();
    }
    markAdminCredentials(dataDir, security.adminPassword);
  }
  const broker = await start(security, admin);
  return { brokers, admin, version: KAFKA_VERSION, pid: broker.pid, stop: broker.stop };
}

const adminMarker = (dataDir: string) => path.join(dataDir, 'admin-scram.sha256');
const digest = (password: string) => createHash('sha256').update(password).digest('hex');

/** Whether the storage holds these admin credentials: formatted with them, or given them since. */
function adminCredentialsCurrent(dataDir: string, password: string): boolean {
  const formatted = fs.existsSync(path.join(kraftConfigPaths(dataDir).logDir, 'meta.properties'));
  if (!formatted) {
    markAdminCredentials(dataDir, password); // formatStorage writes them (`--add-scram`)
    return true;
  }
  return fs.existsSync(adminMarker(dataDir)) && fs.readFileSync(adminMarker(dataDir), 'utf8').trim() === digest(password);
}

function markAdminCredentials(dataDir: string, password: string): void {
  fs.writeFileSync(adminMarker(dataDir), `${digest(password)}\n`, { mode: 0o600 });
}

function adminConnection(brokers: string, security: BrokerSecurity): KafkaConnection {
  if (security.kind === 'plaintext') return { brokers: [brokers] };
  return {
    brokers: [brokers],
    sasl: { mechanism: 'scram-sha-512', username: LOCAL_ADMIN, password: security.adminPassword },
    ...(security.tls ? { ssl: { ca: [fs.readFileSync(security.tls.caFile)] } } : {}),
  };
}

/** Stops a broker a killed earlier run left behind on `dataDir` (before that directory is wiped). */
export function stopOrphanedBroker(dataDir: string): Promise<void> {
  return stopStaleProcess(brokerRecord(path.resolve(dataDir)));
}

function assertPortFree(port: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === 'EADDRINUSE'
            ? `Cannot start Kafka: ${what} port 127.0.0.1:${port} is already in use by another process ` +
                `(another Kafka broker or test run?). Find it with \`ss -ltnp 'sport = :${port}'\`, stop it, or choose another port.`
            : `Cannot start Kafka: checking ${what} port ${port} failed: ${err.message}`,
        ),
      ),
    );
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve()));
  });
}
