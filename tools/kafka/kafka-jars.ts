/**
 * The Kafka broker's runtime classpath, from Maven Central: Maven (tools/kafka/pom.xml) copies it
 * into <repo>/.data/kafka-libs/<version>/ once, safely under concurrent callers.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isAlive } from '../process/process-table';

export const KAFKA_VERSION = '3.9.1';
const MIN_JAVA = 17;
const TOOL_DIR = __dirname;
const POM = path.join(TOOL_DIR, 'pom.xml');
const LOG4J = path.join(TOOL_DIR, 'log4j.properties');
const LIBS_PARENT = path.join(TOOL_DIR, '..', '..', '.data', 'kafka-libs');
const LIBS_DIR = path.join(LIBS_PARENT, KAFKA_VERSION);
const MARKER = '.complete';
const LOCK = path.join(LIBS_PARENT, `${KAFKA_VERSION}.lock`);

const MVN_TIMEOUT_MS = 10 * 60_000;
const LOCK_STALE_MS = MVN_TIMEOUT_MS + 60_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `java` arguments that run `mainClass` from the jars in `libs`, logging as log4j.properties says. */
export function javaArgs(libs: string, jvmFlags: string[], mainClass: string, args: string[]): string[] {
  return [...jvmFlags, `-Dlog4j.configuration=file:${LOG4J}`, '-cp', `${libs}${path.sep}*`, mainClass, ...args];
}

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
