/**
 * One address for a replicated PostgreSQL that moves to whichever server is the primary, as a
 * managed database's endpoint does: HAProxy in TCP mode with one server, whose address its
 * runtime API changes (`set server … addr`). Connections made before a move stay where they
 * were; new ones go to the new address.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import { stopStaleProcess, type ProcessRecord } from '../process/stale-process';
import { startSupervisedProcess } from '../process/supervised-process';
import { ensureHaproxy } from './haproxy';

export interface DatabaseEndpointOptions {
  /** Holds HAProxy's configuration, its admin socket, pid file and log. */
  dir: string;
  port: number;
  /** The port on 127.0.0.1 it forwards to at first. */
  targetPort: number;
  /**
   * How long a connection may carry nothing before the endpoint closes it (HAProxy's `timeout
   * client` and `timeout server`); default 24 h. A managed endpoint's is often minutes.
   */
  idleTimeoutMs?: number;
  log: (line: string) => void;
}

export interface DatabaseEndpoint {
  port: number;
  /** Sends new connections to the server on `targetPort` (127.0.0.1) from now on. */
  moveTo(targetPort: number): Promise<void>;
  stop(): Promise<void>;
}

const BACKEND = 'database/primary';
const DAY_MS = 24 * 60 * 60 * 1000;

export async function startDatabaseEndpoint(opts: DatabaseEndpointOptions): Promise<DatabaseEndpoint> {
  const dir = resolve(opts.dir);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'haproxy.cfg');
  const socket = join(dir, 'admin.sock');
  writeFileSync(config, haproxyConfig(opts.port, opts.targetPort, socket, opts.idleTimeoutMs ?? DAY_MS));
  const record = endpointRecord(dir, `HAProxy on 127.0.0.1:${opts.port}`);
  await stopStaleProcess(record);
  const server = await startSupervisedProcess({
    ...record,
    command: ensureHaproxy(opts.log),
    // -db: in the foreground, so the supervisor owns it; -W would fork a worker it cannot see.
    args: ['-f', config, '-db'],
    cwd: dir,
    output: { file: join(dir, 'haproxy.log') },
    ready: { probe: () => adminCommand(socket, 'show info').then(() => undefined), intervalMs: 100, timeoutMs: 15_000 },
    signalOnParentExit: 'SIGTERM',
  });
  return {
    port: opts.port,
    moveTo: async (targetPort) => {
      const answer = await adminCommand(socket, `set server ${BACKEND} addr 127.0.0.1 port ${targetPort}`);
      if (!/changed/i.test(answer)) throw new Error(`HAProxy did not move the endpoint: ${answer.trim()}`);
    },
    stop: server.stop,
  };
}

/** Stops an endpoint a killed earlier run left on `dir` (before that directory is wiped). */
export function stopOrphanedEndpoint(dir: string): Promise<void> {
  return stopStaleProcess(endpointRecord(resolve(dir)));
}

/** HAProxy on `dir`, as the supervisor and a later run know it. */
function endpointRecord(dir: string, name = 'HAProxy'): ProcessRecord {
  return {
    name,
    pidFile: join(dir, 'haproxy.pid'),
    identity: [`-f ${join(dir, 'haproxy.cfg')}`],
    stop: { signal: 'SIGTERM', graceMs: 5_000 },
  };
}

/**
 * TCP passthrough, by default with no idle time-out of its own (24 h): the apps' LISTEN and
 * leadership sessions sit idle for long stretches, and a short one is a fault of its own (one
 * test sets it on purpose). No
 * retries: a connection to a dead server fails at once, as one to an endpoint's stale address
 * does, instead of HAProxy retrying it for 3 s (one try a second) and hiding how the apps retry.
 */
function haproxyConfig(port: number, targetPort: number, socket: string, idleTimeoutMs: number): string {
  return `global
  stats socket ${socket} mode 600 level admin
  log stdout format raw local0 info

defaults
  mode tcp
  log global
  option tcplog
  timeout connect 1s
  retries 0
  timeout client ${idleTimeoutMs}ms
  timeout server ${idleTimeoutMs}ms

frontend database
  bind 127.0.0.1:${port}
  default_backend database

backend database
  server primary 127.0.0.1:${targetPort}
`;
}

/** One command on HAProxy's runtime API; resolves with its answer. */
function adminCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const connection = createConnection(socket);
    let answer = '';
    connection.setEncoding('utf8');
    connection.on('connect', () => connection.end(`${command}\n`));
    connection.on('data', (chunk: string) => (answer += chunk));
    connection.on('error', reject);
    connection.on('close', () => resolvePromise(answer));
  });
}
