import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CollectionTag, parse, ScalarTag } from 'yaml';

import { knownSettings } from './known-settings';

export { knownSettings };

export interface ComposeService {
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: unknown };
  build?: { context: string; args?: Record<string, string> };
  image?: string;
  restart?: string;
  volumes?: string[];
  profiles?: string[];
  secrets?: string[];
  read_only?: boolean;
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
  mem_limit?: string;
  stop_grace_period?: string;
  tmpfs?: string[];
  command?: string[];
  ports?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file: string }>;
}

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

// Compose's `!reset` (in override files) drops what the file before set: read as the value given.
const composeTags: (ScalarTag | CollectionTag)[] = [
  { tag: '!reset', resolve: () => null },
  { tag: '!reset', collection: 'map', resolve: (map) => map },
];

/** A compose file as Compose reads it (YAML merge keys resolved, `!reset` understood). */
export function readCompose(file = join(REPO_ROOT, 'docker-compose.yml')): ComposeFile {
  return parse(readFileSync(file, 'utf8'), { merge: true, customTags: composeTags }) as ComposeFile;
}

/**
 * The configuration Compose itself makes of `files` (merged in order, `!reset`/`!override` applied,
 * interpolated with `env`; each required `${X:?…}` not given gets a placeholder), from
 * `docker compose config`: the Docker CLI only, no engine.
 */
export function composeConfig(files: string[], env: Record<string, string> = {}): ComposeFile {
  const placeholders: Record<string, string> = {};
  for (const file of files) {
    for (const m of readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(/\$\{(\w+):\?/g)) placeholders[m[1]] = `placeholder-${m[1].toLowerCase()}`;
  }
  const out = execFileSync('docker', ['compose', ...files.flatMap((f) => ['-f', f]), 'config', '--format', 'json'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...placeholders, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as ComposeFile;
}

/**
 * A service's environment after Compose's interpolation, as an operator's `.env` would give it:
 * `${X:?…}` (required) takes the operator's value from `operatorEnv`, `${X:-d}` falls back to d.
 */
export function composeEnvironment(service: string, operatorEnv: Record<string, string>, compose = readCompose()): Record<string, string> {
  const env = compose.services[service]?.environment;
  if (!env) throw new Error(`docker-compose.yml has no environment for service ${service}`);
  return Object.fromEntries(
    Object.entries(env).map(([key, raw]) => [
      key,
      String(raw).replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
        if (operatorEnv[name] !== undefined) return operatorEnv[name];
        if (op === '-') return arg ?? '';
        throw new Error(`${service}.${key} needs ${name} from the operator's environment`);
      }),
    ]),
  );
}


/** The variables the README's configuration table documents (rows starting with `` | `NAME` ``). */
export function readmeSettings(file = join(REPO_ROOT, 'README.md')): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const cell = /^\|\s*([^|]+)\|/.exec(line)?.[1] ?? '';
    for (const m of cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]);
  }
  return names;
}

/** Where Compose mounts a service's secrets. */
export const COMPOSE_SECRETS_DIR = '/run/secrets';

/**
 * A service's environment with each secret file it names (`/run/secrets/<name>`) written into
 * `dir` from `secrets` and pointed at there: the service's settings as its container reads them.
 */
export function withSecretFiles(env: Record<string, string>, dir: string, secrets: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => {
      if (!value.startsWith(`${COMPOSE_SECRETS_DIR}/`)) return [key, value];
      const name = value.slice(COMPOSE_SECRETS_DIR.length + 1);
      if (secrets[name] !== undefined) writeFileSync(join(dir, name), `${secrets[name]}\n`, { mode: 0o600 });
      return [key, join(dir, name)];
    }),
  );
}

/** The variables of an environment a config class does not read (`<NAME>_FILE` is read for a known `<NAME>`). */
export function unknownSettings(env: Record<string, string>, schema: new () => object): string[] {
  const known = knownSettings(schema);
  return Object.keys(env).filter((key) => !known.has(key) && !(key.endsWith('_FILE') && known.has(key.slice(0, -'_FILE'.length))));
}
