/**
 * A real single-node Apache Kafka broker (KRaft, broker+controller in one JVM) for the local
 * stack and the test suite, run from Maven Central artifacts: no Docker, no tarball download.
 *
 * - ensureKafkaJars() resolves the broker's runtime classpath with Maven (tools/kafka/pom.xml)
 *   into <repo>/.data/kafka-libs/<version>/, once, safely under concurrent callers.
 * - startKafka() formats the KRaft storage (idempotent), starts `kafka.Kafka`, and resolves
 *   only when a kafkajs admin client can talk to it and the group coordinator is up.
 *
 * See tools/kafka/README.md.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';

export interface KafkaBrokerOptions {
  /** Where config, KRaft metadata + topic data, cluster id and the default log file live. */
  dataDir: string;
  /** Client (PLAINTEXT) port on 127.0.0.1. Default 9092. */
  port?: number;
  /** KRaft controller port on 127.0.0.1. Default port + 1. */
  controllerPort?: number;
  /** Receives each line the broker prints. Default: appended to <dataDir>/kafka.log. */
  log?: (line: string) => void;
}

export interface RunningKafka {
  /** Bootstrap servers, e.g. "127.0.0.1:9092". */
  brokers: string;
  /** Apache Kafka version, "3.9.1". */
  version: string;
  /** Pid of the broker JVM. */
  pid: number;
  /** SIGTERM (clean shutdown), up to 20 s, then SIGKILL. Idempotent. */
  stop(): Promise<void>;
}

const KAFKA_VERSION = '3.9.1';
const MIN_JAVA = 17;
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const TOOL_DIR = path.join(REPO_ROOT, 'tools', 'kafka');
const POM = path.join(TOOL_DIR, 'pom.xml');
const LOG4J = path.join(TOOL_DIR, 'log4j.properties');
const LIBS_PARENT = path.join(REPO_ROOT, '.data', 'kafka-libs');
const LIBS_DIR = path.join(LIBS_PARENT, KAFKA_VERSION);
const MARKER = '.complete';
const LOCK = path.join(LIBS_PARENT, `${KAFKA_VERSION}.lock`);

const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 20_000;
const MVN_TIMEOUT_MS = 10 * 60_000;
const LOCK_STALE_MS = MVN_TIMEOUT_MS + 60_000;
const TAIL_LINES = 40;

const JVM_FLAGS = [
  '-Xms128m',
  '-Xmx512m',
  '-XX:+UseG1GC',
  '-XX:MaxGCPauseMillis=20',
  '-XX:+ExplicitGCInvokesConcurrent',
  '-Djava.awt.headless=true',
  `-Dlog4j.configuration=file:${LOG4J}`,
];

// Short-lived tools (StorageTool): just start fast.
const TOOL_JVM_FLAGS = [
  '-Xms32m',
  '-Xmx256m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Djava.awt.headless=true',
  `-Dlog4j.configuration=file:${LOG4J}`,
];

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Jars
// ---------------------------------------------------------------------------------------------

let jarsPromise: Promise<string> | undefined;

/** Resolves the broker classpath into <repo>/.data/kafka-libs/3.9.1 (cached); returns that dir. */
export function ensureKafkaJars(): Promise<string> {
  if (!jarsPromise) {
    jarsPromise = doEnsureKafkaJars();
    jarsPromise.catch(() => (jarsPromise = undefined)); // let a later call retry
  }
  return jarsPromise;
}

function isComplete(dir: string): boolean {
  return fs.existsSync(path.join(dir, MARKER));
}

async function doEnsureKafkaJars(): Promise<string> {
  checkToolchain();
  if (isComplete(LIBS_DIR)) return LIBS_DIR;
  fs.mkdirSync(LIBS_PARENT, { recursive: true });

  // One downloader at a time (other processes wait for it); the result is written to a temp dir
  // and renamed into place, so LIBS_DIR never exists half-filled.
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    if (isComplete(LIBS_DIR)) return LIBS_DIR;
    if (tryLock()) break;
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for another process to download Kafka jars (lock ${LOCK})`);
    }
    await sleep(500);
  }
  try {
    if (isComplete(LIBS_DIR)) return LIBS_DIR;
    // Only the lock holder writes temp dirs: any left over are from a killed download.
    for (const name of fs.readdirSync(LIBS_PARENT)) {
      if (name.startsWith(`${KAFKA_VERSION}.tmp-`)) fs.rmSync(path.join(LIBS_PARENT, name), { recursive: true, force: true });
    }
    const tmp = `${LIBS_DIR}.tmp-${process.pid}-${Date.now()}`;
    try {
      await runMaven(tmp);
      const jars = fs.readdirSync(tmp).filter((f) => f.endsWith('.jar'));
      if (!jars.some((f) => f.startsWith(`kafka_2.13-${KAFKA_VERSION}`))) {
        throw new Error(`Maven finished but ${tmp} holds no kafka_2.13-${KAFKA_VERSION}.jar`);
      }
      fs.writeFileSync(path.join(tmp, MARKER), `${new Date().toISOString()} ${jars.length} jars\n`);
      fs.rmSync(LIBS_DIR, { recursive: true, force: true }); // a leftover without the marker
      fs.renameSync(tmp, LIBS_DIR);
      return LIBS_DIR;
    } catch (err) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw err;
    }
  } finally {
    unlock();
  }
}

function tryLock(): boolean {
  try {
    fs.writeFileSync(LOCK, `${process.pid} ${Date.now()}\n`, { flag: 'wx' });
    return true;
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
  }
  // Break the lock if its owner is gone or it is far too old.
  try {
    const [pidStr, atStr] = fs.readFileSync(LOCK, 'utf8').trim().split(/\s+/);
    const pid = Number(pidStr);
    const at = Number(atStr);
    const ownerAlive = pid > 0 && pid !== process.pid && isAlive(pid);
    if (!ownerAlive || Date.now() - at > LOCK_STALE_MS) fs.rmSync(LOCK, { force: true });
  } catch {
    /* raced with the owner removing it: try again next round */
  }
  return false;
}

function unlock(): void {
  try {
    const [pidStr] = fs.readFileSync(LOCK, 'utf8').trim().split(/\s+/);
    if (Number(pidStr) === process.pid) fs.rmSync(LOCK, { force: true });
  } catch {
    /* already gone */
  }
}

/** True while `pid` runs; a zombie (dead, not yet reaped by its new parent) counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return err.code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

let toolchainChecked = false;

/** Throws one Error naming everything that is missing (java >= 17, mvn). */
function checkToolchain(): void {
  if (toolchainChecked) return;
  const problems: string[] = [];

  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) {
    problems.push('`java` (Java 17 or newer) was not found on PATH');
  } else {
    const m = /version "(\d+)(?:\.(\d+))?/.exec(`${java.stderr}${java.stdout}`);
    const major = m ? (m[1] === '1' ? Number(m[2]) : Number(m[1])) : NaN;
    if (!(major >= MIN_JAVA)) {
      const first = `${java.stderr}${java.stdout}`.split('\n')[0].trim();
      problems.push(`\`java\` on PATH is too old (${first || 'unknown version'}); Kafka ${KAFKA_VERSION} here needs Java ${MIN_JAVA}+`);
    }
  }

  const mvn = spawnSync('mvn', ['-v'], { encoding: 'utf8' });
  if (mvn.error || mvn.status !== 0) problems.push('`mvn` (Apache Maven 3.6+) was not found on PATH');

  if (problems.length) {
    throw new Error(
      `Cannot run the local Kafka broker: ${problems.join('; ')}. ` +
        'Install them, e.g. on Debian/Ubuntu: `apt-get update && apt-get install -y openjdk-17-jre-headless maven` ' +
        '(Maven then downloads the Kafka jars from Maven Central on first use).',
    );
  }
  toolchainChecked = true;
}

function runMaven(outDir: string): Promise<void> {
  const args = [
    '-q',
    '-B',
    '-f',
    POM,
    'org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies',
    `-DoutputDirectory=${outDir}`,
    '-DincludeScope=runtime',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('mvn', args, { cwd: TOOL_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const collect = (b: Buffer) => {
      out = (out + b.toString()).slice(-20_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), MVN_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`Could not run mvn: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve();
      fs.rmSync(outDir, { recursive: true, force: true });
      reject(
        new Error(
          `mvn ${args.join(' ')} failed (${signal ?? `exit ${code}`}) while fetching Kafka ${KAFKA_VERSION} jars:\n` +
            out.trim().split('\n').slice(-30).join('\n'),
        ),
      );
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Broker
// ---------------------------------------------------------------------------------------------

/** Starts the broker and resolves once it serves metadata and the group coordinator is up. */
export async function startKafka(opts: KafkaBrokerOptions): Promise<RunningKafka> {
  const port = opts.port ?? 9092;
  const controllerPort = opts.controllerPort ?? port + 1;
  const dataDir = path.resolve(opts.dataDir);
  const configDir = path.join(dataDir, 'config');
  const logDir = path.join(dataDir, 'kraft-combined-logs');
  const propsFile = path.join(configDir, 'server.properties');
  const pidFile = path.join(dataDir, 'kafka.pid');
  const brokers = `127.0.0.1:${port}`;

  const libs = await ensureKafkaJars();
  fs.mkdirSync(configDir, { recursive: true });
  fs.mkdirSync(logDir, { recursive: true });

  await reclaimOrphan(pidFile, propsFile);
  await assertPortFree(port, 'client');
  await assertPortFree(controllerPort, 'controller');

  fs.writeFileSync(propsFile, serverProperties({ port, controllerPort, logDir }));
  const clusterId = clusterIdFor(dataDir, logDir);
  const classpath = `${libs}${path.sep}*`;

  // Format KRaft storage once. `--ignore-formatted` would make this a no-op anyway, but skipping
  // the extra JVM saves ~1.5 s on every warm start.
  const fmt = isFormatted(logDir, clusterId)
    ? undefined
    : spawnSync(
        'java',
        [...TOOL_JVM_FLAGS, '-cp', classpath, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', propsFile, '--ignore-formatted'],
        { cwd: dataDir, encoding: 'utf8', timeout: 60_000 },
      );
  if (fmt && (fmt.error || fmt.status !== 0)) {
    throw new Error(
      `Formatting Kafka storage in ${logDir} failed (${fmt.error?.message ?? `exit ${fmt.status}`}):\n` +
        `${fmt.stdout ?? ''}${fmt.stderr ?? ''}`.trim() +
        `\n(If ${path.join(dataDir, 'cluster-id')} and the storage disagree, delete ${dataDir} to start from scratch.)`,
    );
  }

  // Output sink.
  let fileSink: fs.WriteStream | undefined;
  const sink =
    opts.log ??
    ((line: string) => {
      fileSink ??= fs.createWriteStream(path.join(dataDir, 'kafka.log'), { flags: 'a' });
      fileSink.write(`${line}\n`);
    });
  const tail: string[] = [];
  const onLine = (line: string) => {
    tail.push(line);
    if (tail.length > TAIL_LINES) tail.shift();
    try {
      sink(line);
    } catch {
      /* a throwing logger must not take the broker down */
    }
  };

  const child = spawn('java', [...JVM_FLAGS, '-cp', classpath, 'kafka.Kafka', propsFile], {
    cwd: dataDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stopping: Promise<void> | undefined;
  let spawnError: Error | undefined;
  child.on('error', (err) => (spawnError = err));
  pipeLines(child, onLine);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let exitInfo: string | undefined;
  child.once('exit', (code, signal) => {
    exitInfo = signal ? `killed by ${signal}` : `exit code ${code}`;
    if (!stopping) onLine(`[tools/kafka/broker.ts] Kafka broker pid ${child.pid} exited unexpectedly (${exitInfo})`);
  });

  const unregister = killOnParentExit(child);
  if (child.pid) fs.writeFileSync(pidFile, `${child.pid}\n`);

  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      if (child.pid && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          exited.then(() => false),
          new Promise<boolean>((r) => (timer = setTimeout(() => r(true), STOP_TIMEOUT_MS))),
        ]);
        clearTimeout(timer);
        if (timedOut) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      unregister();
      try {
        if (fs.readFileSync(pidFile, 'utf8').trim() === String(child.pid)) fs.rmSync(pidFile, { force: true });
      } catch {
        /* gone */
      }
      if (fileSink) await new Promise<void>((r) => fileSink!.end(() => r()));
    })());

  const started = Date.now();
  try {
    await waitUntilReady(brokers, () => {
      if (spawnError) return `could not start java: ${spawnError.message}`;
      return exitInfo ? `the broker exited (${exitInfo})` : undefined;
    });
  } catch (err) {
    await stop();
    const where = opts.log ? '' : ` (full log: ${path.join(dataDir, 'kafka.log')})`;
    throw new Error(
      `Kafka ${KAFKA_VERSION} on ${brokers} did not become ready after ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
        `${err.message}${where}\n--- last broker output ---\n${tail.join('\n') || '(none)'}`,
    );
  }

  return { brokers, version: KAFKA_VERSION, pid: child.pid!, stop };
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

function serverProperties(p: { port: number; controllerPort: number; logDir: string }): string {
  const props: Record<string, string | number | boolean> = {
    'process.roles': 'broker,controller',
    'node.id': 1,
    'controller.quorum.voters': `1@127.0.0.1:${p.controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${p.port},CONTROLLER://127.0.0.1:${p.controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${p.port}`,
    'controller.listener.names': 'CONTROLLER',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'inter.broker.listener.name': 'PLAINTEXT',
    'log.dirs': p.logDir,
    // One node: every replication factor and min ISR is 1.
    'default.replication.factor': 1,
    'min.insync.replicas': 1,
    'offsets.topic.replication.factor': 1,
    'offsets.topic.num.partitions': 1,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'transaction.state.log.num.partitions': 1,
    // Consumers join at once instead of waiting 3 s for more members.
    'group.initial.rebalance.delay.ms': 0,
    // Topics are created explicitly with the admin client (no auto-create races).
    'auto.create.topics.enable': false,
    'delete.topic.enable': true,
    // After an unclean stop (SIGKILL) the restarted node is refused with
    // DUPLICATE_BROKER_REGISTRATION until its old session expires: 9 s by default, ~14 s with
    // retry backoff. A 3 s session (heartbeat 0.5 s) keeps that restart short.
    'broker.session.timeout.ms': 3000,
    'broker.heartbeat.interval.ms': 500,
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
    `# Written by tools/kafka/broker.ts on every start; edits are overwritten.\n` +
    Object.entries(props)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') +
    '\n'
  );
}

/** Kafka cluster ids are 16-byte UUIDs in unpadded base64url (22 chars). Kept stable per dataDir. */
function clusterIdFor(dataDir: string, logDir: string): string {
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

/**
 * A broker left behind on this dataDir by a process that died without stopping it (SIGKILL,
 * crash) keeps the ports and the log-dir lock. Reclaim it (SIGTERM, then SIGKILL) if it is
 * orphaned; if its Node parent is still alive it belongs to another run: fail with a clear message.
 */
/** Stops a broker a killed earlier run left behind on `dataDir` (before that directory is wiped). */
export function stopOrphanedBroker(dataDir: string): Promise<void> {
  const dir = path.resolve(dataDir);
  return reclaimOrphan(path.join(dir, 'kafka.pid'), path.join(dir, 'config', 'server.properties'));
}

async function reclaimOrphan(pidFile: string, propsFile: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return;
  }
  let cmdline = '';
  let ppid = 0;
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    ppid = Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    /* not running (or no /proc) */
  }
  if (!(pid > 0) || !cmdline.includes('kafka.Kafka') || !cmdline.includes(propsFile)) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  let parent = '';
  try {
    parent = fs.readFileSync(`/proc/${ppid}/comm`, 'utf8').trim();
  } catch {
    /* parent gone */
  }
  // Orphans are re-parented to init (pid 1) or a subreaper such as `systemd --user`.
  const orphaned = ppid === 1 || !parent.includes('node');
  if (!orphaned) {
    throw new Error(
      `Cannot start Kafka: a broker (pid ${pid}, started by ${parent} pid ${ppid}) is already running on ${path.dirname(pidFile)}. ` +
        `Stop that run first, or use another dataDir.`,
    );
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(50);
  fs.rmSync(pidFile, { force: true });
}

function pipeLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    let buf = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, i).replace(/\r$/, ''));
        buf = buf.slice(i + 1);
      }
    });
    stream.on('end', () => {
      if (buf) onLine(buf);
      buf = '';
    });
  }
}

/**
 * SIGKILL the broker if this Node process exits without calling stop(). Also covers SIGINT /
 * SIGTERM / SIGHUP when nobody else handles them: the broker is killed, then the signal is
 * re-raised so the process still dies the default way. Returns an unregister function.
 */
function killOnParentExit(child: ChildProcess): () => void {
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  };
  process.on('exit', kill);
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const sig of signals) {
    if (process.listenerCount(sig) > 0) continue; // someone else owns shutdown; 'exit' still covers us
    const handler = () => {
      // A handler added after ours owns shutdown (and should call stop()); stay out of its way.
      if (process.listenerCount(sig) > 1) return;
      kill();
      for (const [s, h] of handlers) process.removeListener(s, h);
      process.kill(process.pid, sig);
    };
    handlers.set(sig, handler);
    process.on(sig, handler);
  }
  return () => {
    process.removeListener('exit', kill);
    for (const [s, h] of handlers) process.removeListener(s, h);
  };
}

/**
 * Ready = a kafkajs admin client can describe the cluster, list topics, and find a group
 * coordinator. The last step makes the broker create __consumer_offsets now, so the first real
 * consumer does not hit "The group coordinator is not available".
 */
async function waitUntilReady(brokers: string, died: () => string | undefined): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError = 'no attempt yet';
  const kafka = new Kafka({
    clientId: 'tailsync-kafka-readiness',
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: 5_000,
    retry: { retries: 0 },
  });
  while (Date.now() < deadline) {
    const dead = died();
    if (dead) throw new Error(dead);
    const admin = kafka.admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length < 1) throw new Error('describeCluster() returned no brokers');
      await admin.listTopics();
      await admin.describeGroups(['tailsync-kafka-readiness']);
      return;
    } catch (err) {
      lastError = err?.message ?? String(err);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    await sleep(250);
  }
  throw new Error(`timed out after ${READY_TIMEOUT_MS / 1000} s; last probe error: ${lastError}`);
}
