/**
 * A real Apache Kafka broker, or a cluster of three (KRaft, each node broker and controller in one
 * JVM), for the local stack and the test suite, run from Maven Central artifacts: no Docker, no
 * tarball download.
 * The jars come from kafka-jars.ts, the configuration from kraft-config.ts; the JVM runs under
 * the process supervisor that PostgreSQL shares (tools/process). See tools/kafka/README.md.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { KafkaConnection } from '@tailsync/service-kit';
import { ProcessRecord, stopStaleProcess } from '../process/stale-process';
import { startSupervisedProcess, type SupervisedProcess } from '../process/supervised-process';
import { brokerReadinessProbe } from './broker-readiness';
import { ensureKafkaJars, javaArgs, KAFKA_VERSION } from './kafka-jars';
import { type BrokerSecurity, kraftClusterId, kraftConfigPaths, LOCAL_ADMIN, writeKraftConfig } from './kraft-config';
import { upsertScramUsers } from './scram-credentials';

export interface KafkaBrokerOptions {
  /**
   * Where config, KRaft metadata + topic data, cluster id and the default log file live; with
   * several nodes, node i keeps them in `<dataDir>-<i>`.
   */
  dataDir: string;
  /** Client port of node 1 on 127.0.0.1; node i listens on port + 2(i - 1), its controller one above. Default 9092. */
  port?: number;
  /** How many nodes, each broker and controller, all voting in the controller quorum. Default 1. */
  nodes?: number;
  /** Receives each line a node prints (prefixed with its node id when there are several). Default: appended to its kafka.log. */
  log?: (line: string) => void;
  /** Default PLAINTEXT, no ACLs. */
  security?: BrokerSecurity;
}

export interface RunningKafka {
  /** Bootstrap servers, e.g. "127.0.0.1:9092" (a comma list with several nodes). */
  brokers: string;
  /** How the `admin` super user connects (with SASL); PLAINTEXT otherwise. */
  admin: KafkaConnection;
  /** Apache Kafka version, "3.9.1". */
  version: string;
  nodes: KafkaNode[];
  /** Stops every node: SIGTERM (clean shutdown), up to 20 s, then SIGKILL. Idempotent. */
  stop(): Promise<void>;
}

/** One node of a running cluster, for tests that take it down and bring it back. */
export interface KafkaNode {
  nodeId: number;
  /** "127.0.0.1:<client port>". */
  address: string;
  /** Pid of its JVM; undefined while it is down. */
  pid(): number | undefined;
  /** SIGKILL, as a lost machine; resolves once the JVM is gone. */
  kill(): Promise<void>;
  /** Starts it again (after kill or stop); resolves once it serves. */
  restart(): Promise<void>;
}

/**
 * How long a node may take to serve. A node restarted into a running cluster first catches up on
 * the metadata log and waits to be unfenced; on a loaded 2-core machine that took over 90 s.
 */
export const NODE_READY_MS = 180_000;

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

interface NodePlace {
  nodeId: number;
  dataDir: string;
  port: number;
  controllerPort: number;
}

/** Where node i of `count` lives: the single node on `dataDir` itself, so one broker keeps its old place. */
function nodePlaces(dataDir: string, port: number, count: number): NodePlace[] {
  return Array.from({ length: count }, (_, i) => ({
    nodeId: i + 1,
    dataDir: count === 1 ? dataDir : `${dataDir}-${i + 1}`,
    port: port + 2 * i,
    controllerPort: port + 2 * i + 1,
  }));
}

/** Starts the nodes together (a quorum forms only with most of them) and resolves once every one serves metadata and the group coordinator is up. */
export async function startKafka(opts: KafkaBrokerOptions): Promise<RunningKafka> {
  const count = opts.nodes ?? 1;
  const places = nodePlaces(path.resolve(opts.dataDir), opts.port ?? 9092, count);
  const brokers = places.map((p) => `127.0.0.1:${p.port}`);

  const libs = await ensureKafkaJars();
  for (const place of places) {
    fs.mkdirSync(place.dataDir, { recursive: true });
    await stopStaleProcess(brokerRecord(place.dataDir));
    await assertPortFree(place.port, 'client');
    await assertPortFree(place.controllerPort, 'controller');
  }
  const security = opts.security ?? { kind: 'plaintext' };
  const admin = adminConnection(brokers, security);
  const quorum = { controllerPorts: places.map((p) => p.controllerPort), clusterId: kraftClusterId(places[0].dataDir) };
  const startNode = async (place: NodePlace, startSecurity: BrokerSecurity, probeAs: KafkaConnection): Promise<SupervisedProcess> => {
    const config = await writeKraftConfig({ dataDir: place.dataDir, libs, port: place.port, quorum: { ...quorum, nodeId: place.nodeId }, security: startSecurity });
    const address = `127.0.0.1:${place.port}`;
    return startSupervisedProcess({
      ...brokerRecord(place.dataDir, `Kafka ${KAFKA_VERSION} node ${place.nodeId} on ${address}`),
      command: 'java',
      args: javaArgs(libs, JVM_FLAGS, 'kafka.Kafka', [config.propsFile]),
      cwd: place.dataDir,
      output: opts.log ? nodeLog(opts.log, place.nodeId, count) : { file: path.join(place.dataDir, 'kafka.log') },
      // Asked of this node alone, which counts the cluster's brokers too.
      ready: { probe: brokerReadinessProbe({ ...probeAs, brokers: [address] }, count), intervalMs: 250, timeoutMs: NODE_READY_MS },
      signalOnParentExit: 'SIGKILL',
    });
  };
  const startAll = (startSecurity: BrokerSecurity, probeAs: KafkaConnection) => allOrNone(places.map((place) => () => startNode(place, startSecurity, probeAs)));
  if (security.kind === 'sasl' && !places.every((p) => adminCredentialsCurrent(p.dataDir, security.adminPassword))) {
    // Storage formatted without these admin credentials (before SASL, or with another password):
    // set them once on a PLAINTEXT start, since the broker logs in with them on its own listener.
    const plaintext = await startAll({ kind: 'plaintext' }, { brokers });
    try {
      await upsertScramUsers({ brokers }, [{ name: LOCAL_ADMIN, password: security.adminPassword }]);
    } finally {
      await Promise.all(plaintext.map((p) => p.stop()));
    }
    for (const place of places) markAdminCredentials(place.dataDir, security.adminPassword);
  }
  const running = await startAll(security, admin);
  const nodes = places.map((place, i): KafkaNode & { stop(): Promise<void> } => {
    let current: SupervisedProcess | undefined = running[i];
    const stop = async () => {
      const stopping = current;
      current = undefined;
      await stopping?.stop();
    };
    return {
      nodeId: place.nodeId,
      address: `127.0.0.1:${place.port}`,
      pid: () => current?.pid,
      kill: async () => {
        if (current) process.kill(current.pid, 'SIGKILL');
        await stop();
      },
      restart: async () => {
        await stop();
        current = await startNode(place, security, admin);
      },
      stop,
    };
  });
  return {
    brokers: brokers.join(','),
    admin,
    version: KAFKA_VERSION,
    nodes,
    stop: async () => {
      await Promise.all(nodes.map((n) => n.stop()));
    },
  };
}

/** Runs every start; if one fails, stops those that started and throws its error. */
async function allOrNone(starts: (() => Promise<SupervisedProcess>)[]): Promise<SupervisedProcess[]> {
  const results = await Promise.allSettled(starts.map((start) => start()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (!failed) return results.map((r) => (r as PromiseFulfilledResult<SupervisedProcess>).value);
  await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
  throw failed.reason;
}

const nodeLog = (log: (line: string) => void, nodeId: number, count: number) => (count === 1 ? log : (line: string) => log(`[node ${nodeId}] ${line}`));

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

function adminConnection(brokers: string[], security: BrokerSecurity): KafkaConnection {
  if (security.kind === 'plaintext') return { brokers };
  return {
    brokers,
    sasl: { mechanism: 'scram-sha-512', username: LOCAL_ADMIN, password: security.adminPassword },
    ...(security.tls ? { ssl: { ca: [fs.readFileSync(security.tls.caFile)] } } : {}),
  };
}

/**
 * Stops a broker a killed earlier run left behind on `dataDir`, or the nodes of a cluster on
 * `<dataDir>-<i>` (before those directories are wiped).
 */
export async function stopOrphanedBroker(dataDir: string): Promise<void> {
  const base = path.resolve(dataDir);
  const parent = path.dirname(base);
  const nodeDirs = fs.existsSync(parent)
    ? fs.readdirSync(parent).filter((name) => name.startsWith(`${path.basename(base)}-`) && /-\d+$/.test(name)).map((name) => path.join(parent, name))
    : [];
  await Promise.all([base, ...nodeDirs].map((dir) => stopStaleProcess(brokerRecord(dir))));
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
