import { type GrpcOptions, Transport } from '@nestjs/microservices';
import { PROTO_LOADER_OPTIONS, PROTO_PACKAGE, PROTO_ROOT } from '@tailsync/contracts';
import { join } from 'node:path';
import { type GrpcTlsFiles, serviceServerCredentials } from './grpc-tls';

/** Where a service serves its requests: one `.proto` of libs/contracts/proto, on every interface. */
export interface GrpcEndpoint {
  protoFile: string;
  port: number;
  /** Mutual TLS with the gateway (grpc-tls.ts); plaintext without it. */
  tls?: GrpcTlsFiles;
}

/**
 * Nest's gRPC transport for one service. Shutdown is graceful: calls in flight finish before the
 * server closes, so a stopped copy answers what it accepted.
 */
export function grpcServerOptions(endpoint: GrpcEndpoint, host = '0.0.0.0'): GrpcOptions {
  return {
    transport: Transport.GRPC,
    options: {
      package: PROTO_PACKAGE,
      protoPath: join(PROTO_ROOT, endpoint.protoFile),
      url: `${host}:${endpoint.port}`,
      loader: PROTO_LOADER_OPTIONS,
      ...(endpoint.tls ? { credentials: serviceServerCredentials(endpoint.tls) } : {}),
      gracefulShutdown: true,
      channelOptions: {
        // Clients reconnect every 5 minutes or so, and re-resolve their target then: copies added
        // behind a DNS name (compose --scale, a Kubernetes headless service) get their share.
        'grpc.max_connection_age_ms': 300_000,
        'grpc.max_connection_age_grace_ms': 30_000,
      },
    },
  };
}
