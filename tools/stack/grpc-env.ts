/**
 * The gRPC settings of a local stack: each service's first copy listens on the first of its ports,
 * and the gateway balances over all of them (a copy not running is skipped until it answers).
 */
export interface GrpcPorts {
  'tail-sync': readonly number[];
  'webhook-dispatcher': readonly number[];
}

const target = (ports: readonly number[]) => `ipv4:${ports.map((port) => `127.0.0.1:${port}`).join(',')}`;

export function grpcEnv(ports: GrpcPorts): Record<string, string> {
  return {
    TAIL_SYNC_GRPC_PORT: String(ports['tail-sync'][0]),
    WEBHOOK_DISPATCHER_GRPC_PORT: String(ports['webhook-dispatcher'][0]),
    TAIL_SYNC_GRPC_TARGET: target(ports['tail-sync']),
    WEBHOOK_DISPATCHER_GRPC_TARGET: target(ports['webhook-dispatcher']),
  };
}
