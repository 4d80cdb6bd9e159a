/**
 * A KRaft node's configuration under its data directory: server.properties (rewritten on every
 * start) and the storage, formatted once for its cluster's id. Every node is broker and
 * controller; one node alone, or three voting together.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { topicReplication } from '@tailsync/service-kit/topic-replication';
import { javaArgs } from './kafka-jars';

/**
 * How the broker lets clients in. `sasl`: SASL/SCRAM (SHA-512 and SHA-256) on the client listener
 * (over TLS with `tls`, and PLAIN too when it lists users), PLAIN on the controller listener (KRaft cannot use SCRAM there: its
 * credentials live in the metadata the controller serves), ACLs enforced with
 * `allow.everyone.if.no.acl.found=false` and `admin` the only super user.
 */
export type BrokerSecurity =
  | { kind: 'plaintext' }
  | { kind: 'sasl'; adminPassword: string; tls?: BrokerTls };

export interface BrokerTls {
  /** PEM: the broker's private key (unencrypted PKCS#8) followed by its certificate chain. */
  keystoreFile: string;
  /** PEM: the CA that signed it, which clients trust. */
  caFile: string;
  /**
   * Users the TLS listener also accepts with SASL/PLAIN (name → password), the mechanism managed
   * Kafka offerings use; never on a listener without TLS, where PLAIN sends the password in clear.
   */
  plainUsers?: Record<string, string>;
}

/** A node's place in its cluster. */
export interface KraftQuorum {
  /** 1 to the number of voters. */
  nodeId: number;
  /** The controller port of every voter on 127.0.0.1: node id i + 1 at index i. */
  controllerPorts: number[];
  /** The same for every node of the cluster (kraftClusterId). */
  clusterId: string;
}

export interface KraftConfig {
  /** config/server.properties: what `kafka.Kafka` is started with. */
  propsFile: string;
  /** kraft-combined-logs/: the metadata log and the topic data. */
  logDir: string;
}

// Short-lived tools (StorageTool): just start fast.
const TOOL_JVM_FLAGS = ['-Xms32m', '-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true'];
const FORMAT_TIMEOUT_MS = 60_000;

/** Where a broker on `dataDir` keeps its configuration (nothing is written). */
export function kraftConfigPaths(dataDir: string): KraftConfig {
  return { propsFile: path.join(dataDir, 'config', 'server.properties'), logDir: path.join(dataDir, 'kraft-combined-logs') };
}

/** Writes server.properties and formats the storage if it is not yet formatted for this cluster id. */
export async function writeKraftConfig(p: { dataDir: string; libs: string; port: number; quorum: KraftQuorum; security: BrokerSecurity }): Promise<KraftConfig> {
  const config = kraftConfigPaths(p.dataDir);
  fs.mkdirSync(path.dirname(config.propsFile), { recursive: true, mode: 0o700 });
  fs.mkdirSync(config.logDir, { recursive: true });
  // Mode 0600: with SASL it holds the admin password (the broker's own login).
  fs.writeFileSync(config.propsFile, serverProperties({ port: p.port, quorum: p.quorum, logDir: config.logDir, security: p.security }), { mode: 0o600 });
  fs.chmodSync(config.propsFile, 0o600);
  const { clusterId } = p.quorum;
  // `--ignore-formatted` would make this a no-op anyway, but skipping the extra JVM saves ~1.5 s
  // on every warm start.
  if (!isFormatted(config.logDir, clusterId)) await formatStorage(p.dataDir, p.libs, clusterId, config, p.security);
  return config;
}

async function formatStorage(dataDir: string, libs: string, clusterId: string, { propsFile, logDir }: KraftConfig, security: BrokerSecurity): Promise<void> {
  // The admin's SCRAM credentials go into the first metadata (`kafka-storage.sh format --add-scram`):
  // the broker logs in with them on its own listener before any user could be created.
  const scram =
    security.kind === 'sasl'
      ? ['SCRAM-SHA-512', 'SCRAM-SHA-256'].flatMap((m) => ['--add-scram', `${m}=[name=${LOCAL_ADMIN},password=${security.adminPassword}]`])
      : [];
  const args = javaArgs(libs, TOOL_JVM_FLAGS, 'kafka.tools.StorageTool', ['format', '-t', clusterId, '-c', propsFile, '--ignore-formatted', ...scram]);
  try {
    await promisify(execFile)('java', args, { cwd: dataDir, encoding: 'utf8', timeout: FORMAT_TIMEOUT_MS });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string; code?: number | string };
    throw new Error(
      `Formatting Kafka storage in ${logDir} failed (${typeof e.code === 'number' ? `exit ${e.code}` : e.message}):\n` +
        `${e.stdout ?? ''}${e.stderr ?? ''}`.trim() +
        `\n(If ${path.join(dataDir, 'cluster-id')} and the storage disagree, delete ${dataDir} to start from scratch.)`,
    );
  }
}

function isFormatted(logDir: string, clusterId: string): boolean {
  try {
    const meta = fs.readFileSync(path.join(logDir, 'meta.properties'), 'utf8');
    return (
      /^cluster\.id=(.+)$/m.exec(meta)?.[1].trim() === clusterId &&
      fs.existsSync(path.join(logDir, 'bootstrap.checkpoint'))
    );
  } catch {
    return false;
  }
}

/** The super user of a local broker with SASL: the stack's `admin` principal. */
export const LOCAL_ADMIN = 'admin';

/** Listener settings: PLAINTEXT as before, or SASL (and TLS) with ACLs. */
function listenerProperties(p: { port: number; controllerPort: number; security: BrokerSecurity }): Record<string, string | number | boolean> {
  if (p.security.kind === 'plaintext') {
    return {
      listeners: `PLAINTEXT://127.0.0.1:${p.port},CONTROLLER://127.0.0.1:${p.controllerPort}`,
      'advertised.listeners': `PLAINTEXT://127.0.0.1:${p.port}`,
      'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      'inter.broker.listener.name': 'PLAINTEXT',
    };
  }
  const jaas = (module: string, extra = '') => `${module} required username="${LOCAL_ADMIN}" password="${p.security.kind === 'sasl' ? p.security.adminPassword : ''}"${extra};`;
  const { tls } = p.security;
  return {
    listeners: `CLIENT://127.0.0.1:${p.port},CONTROLLER://127.0.0.1:${p.controllerPort}`,
    'advertised.listeners': `CLIENT://127.0.0.1:${p.port}`,
    'listener.security.protocol.map': `CONTROLLER:SASL_PLAINTEXT,CLIENT:${tls ? 'SASL_SSL' : 'SASL_PLAINTEXT'}`,
    'inter.broker.listener.name': 'CLIENT',
    'sasl.mechanism.inter.broker.protocol': 'SCRAM-SHA-512',
    'listener.name.client.sasl.enabled.mechanisms': `SCRAM-SHA-512,SCRAM-SHA-256${tls?.plainUsers ? ',PLAIN' : ''}`,
    'listener.name.client.scram-sha-512.sasl.jaas.config': jaas('org.apache.kafka.common.security.scram.ScramLoginModule'),
    'listener.name.client.scram-sha-256.sasl.jaas.config': jaas('org.apache.kafka.common.security.scram.ScramLoginModule'),
    ...(tls?.plainUsers
      ? { 'listener.name.client.plain.sasl.jaas.config': jaas('org.apache.kafka.common.security.plain.PlainLoginModule', plainUserEntries(tls.plainUsers)) }
      : {}),
    'sasl.mechanism.controller.protocol': 'PLAIN',
    'listener.name.controller.sasl.enabled.mechanisms': 'PLAIN',
    'listener.name.controller.plain.sasl.jaas.config': jaas('org.apache.kafka.common.security.plain.PlainLoginModule', plainUserEntries({ [LOCAL_ADMIN]: p.security.adminPassword })),
    'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
    'allow.everyone.if.no.acl.found': false,
    'super.users': `User:${LOCAL_ADMIN}`,
    // The broker is its own client on this listener (inter-broker): it trusts the same CA.
    ...(tls
      ? {
          'listener.name.client.ssl.keystore.type': 'PEM',
          'listener.name.client.ssl.keystore.location': tls.keystoreFile,
          'listener.name.client.ssl.truststore.type': 'PEM',
          'listener.name.client.ssl.truststore.location': tls.caFile,
        }
      : {}),
  };
}

/** PlainLoginModule's users: ` user_<name>="<password>"` each. */
const plainUserEntries = (users: Record<string, string>): string =>
  Object.entries(users)
    .map(([name, password]) => ` user_${name}="${password}"`)
    .join('');

function serverProperties(p: { port: number; quorum: KraftQuorum; logDir: string; security: BrokerSecurity }): string {
  const { controllerPorts, nodeId } = p.quorum;
  // What tailsync's topics get on a cluster this size (1 and 1 alone; 3 and 2 on three nodes), for Kafka's own topics too.
  const replication = topicReplication(controllerPorts.length);
  const props: Record<string, string | number | boolean> = {
    'process.roles': 'broker,controller',
    'node.id': nodeId,
    'controller.quorum.voters': controllerPorts.map((port, i) => `${i + 1}@127.0.0.1:${port}`).join(','),
    'controller.listener.names': 'CONTROLLER',
    ...listenerProperties({ port: p.port, controllerPort: controllerPorts[nodeId - 1], security: p.security }),
    'log.dirs': p.logDir,
    'default.replication.factor': replication.replicationFactor,
    'min.insync.replicas': replication.minInsyncReplicas,
    'offsets.topic.replication.factor': replication.replicationFactor,
    'offsets.topic.num.partitions': 1,
    'transaction.state.log.replication.factor': replication.replicationFactor,
    'transaction.state.log.min.isr': replication.minInsyncReplicas,
    'transaction.state.log.num.partitions': 1,
    // Consumers join at once instead of waiting 3 s for more members.
    'group.initial.rebalance.delay.ms': 0,
    // Topics are created explicitly with the admin client (no auto-create races).
    'auto.create.topics.enable': false,
    'delete.topic.enable': true,
    ...brokerSession(controllerPorts.length),
    'num.partitions': 3,
    // A small machine: fewer threads, quicker recovery.
    'num.network.threads': 2,
    'num.io.threads': 4,
    'background.threads': 4,
    'num.recovery.threads.per.data.dir': 1,
    'log.retention.hours': 24,
    'log.segment.bytes': 64 * 1024 * 1024,
  };
  return (
    `# Written by tools/kafka/kraft-config.ts on every start; edits are overwritten.\n` +
    Object.entries(props)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') +
    '\n'
  );
}

/**
 * How soon the controller fences a broker that stopped heartbeating. One node: after an unclean
 * stop (SIGKILL) the restarted node is refused with DUPLICATE_BROKER_REGISTRATION until its old
 * session expires (9 s by default, ~14 s with retry backoff), and no other broker could take its
 * partitions anyway, so a 3 s session (heartbeat 0.5 s) keeps that restart short. A cluster keeps
 * Kafka's defaults (9 s, heartbeat 2 s), as production clusters and managed Kafka run: a lost
 * broker's partitions get a new leader only once it is fenced, and the clients must ride out
 * that long a failover (FAILOVER_RETRY), which a shorter session here would hide.
 */
function brokerSession(nodes: number): Record<string, number> {
  return nodes === 1
    ? { 'broker.session.timeout.ms': 3000, 'broker.heartbeat.interval.ms': 500 }
    : { 'broker.session.timeout.ms': 9000, 'broker.heartbeat.interval.ms': 2000 };
}

/**
 * The cluster id of the node on `dataDir` (the first node's, for a cluster), made once and kept:
 * Kafka's are 16-byte UUIDs in unpadded base64url (22 characters).
 */
export function kraftClusterId(dataDir: string): string {
  const logDir = kraftConfigPaths(dataDir).logDir;
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'cluster-id');
  const valid = (s: string) => /^[A-Za-z0-9_-]{22}$/.test(s);
  if (fs.existsSync(file)) {
    const id = fs.readFileSync(file, 'utf8').trim();
    if (valid(id)) return id;
  }
  // Storage formatted earlier but the id file lost: keep the id the storage already has.
  const meta = path.join(logDir, 'meta.properties');
  if (fs.existsSync(meta)) {
    const m = /^cluster\.id=(.+)$/m.exec(fs.readFileSync(meta, 'utf8'));
    if (m && valid(m[1].trim())) {
      fs.writeFileSync(file, `${m[1].trim()}\n`);
      return m[1].trim();
    }
  }
  let id: string;
  do {
    id = Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url');
  } while (id.startsWith('-')); // Kafka's Uuid.randomUuid() avoids these too (CLI parsing)
  fs.writeFileSync(file, `${id}\n`);
  return id;
}
