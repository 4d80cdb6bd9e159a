/**
 * The copies of each app the bench stack runs (`--gateways`, `--dispatchers`; one tail-sync) and
 * what sets each copy apart: its listening ports and instance name. A copy's ports are the first
 * copy's + 10 × its index, as e2e starts its second copies.
 */
import type { AppName } from '@tailsync/stack';

export interface Copies {
  gateway: number;
  'webhook-dispatcher': number;
}

export interface AppCopy {
  name: AppName;
  /** The first copy has the app's name, the next ones `<name>-2`, … (INSTANCE_ID, log file). */
  instance: string;
  /** The environment only this copy has (the rest is the stack's). */
  env: Record<string, string>;
  /** Its readiness probe. */
  readyUrl: string;
}

export interface CopyPorts {
  gateway: number;
  'tail-sync': number;
  'webhook-dispatcher': number;
  /** The gateway's operators' port (`/metrics`). */
  management: number;
  tailSyncGrpc: number;
  dispatcherGrpc: number;
}

const STEP = 10;

/** The ports of copy 0, 1, … of an app whose first copy listens on `first`. */
export const portsOfCopies = (first: number, count: number): number[] => Array.from({ length: count }, (_, i) => first + STEP * i);

/** Every copy, the services first (the gateways' readiness calls them). */
export function appCopies(copies: Copies, ports: CopyPorts): AppCopy[] {
  const url = (port: number) => `http://127.0.0.1:${port}/health/ready`;
  const instance = (name: AppName, i: number) => (i === 0 ? name : `${name}-${i + 1}`);
  const tailSync: AppCopy = { name: 'tail-sync', instance: 'tail-sync', env: {}, readyUrl: url(ports['tail-sync']) };
  const grpcPorts = portsOfCopies(ports.dispatcherGrpc, copies['webhook-dispatcher']);
  const dispatchers = portsOfCopies(ports['webhook-dispatcher'], copies['webhook-dispatcher']).map((port, i): AppCopy => ({
    name: 'webhook-dispatcher',
    instance: instance('webhook-dispatcher', i),
    env: { WEBHOOK_DISPATCHER_HTTP_PORT: String(port), WEBHOOK_DISPATCHER_GRPC_PORT: String(grpcPorts[i]) },
    readyUrl: url(port),
  }));
  const managementPorts = portsOfCopies(ports.management, copies.gateway);
  const gateways = portsOfCopies(ports.gateway, copies.gateway).map((port, i): AppCopy => ({
    name: 'gateway',
    instance: instance('gateway', i),
    env: { PORT: String(port), MANAGEMENT_PORT: String(managementPorts[i]) },
    readyUrl: url(port),
  }));
  return [tailSync, ...dispatchers, ...gateways];
}
