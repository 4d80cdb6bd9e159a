import { Logger } from '@nestjs/common';
import { ClientGrpcProxy } from '@nestjs/microservices';
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { loadSync } from '@grpc/proto-loader';
import { type CallerContext, PROTO_LOADER_OPTIONS, PROTO_PACKAGE, PROTO_ROOT } from '@tailsync/contracts';
import {
  CALL_METADATA, type CallerRole, type CallerSigning, correlationOf, gatewayChannelCredentials, type GrpcTlsFiles, PROMPT_RECONNECTION, serviceNameCheck,
} from '@tailsync/service-kit';
import { join } from 'node:path';
import { InternalError, ServiceUnavailable } from '../../problems/domain/problem';
import { COPIES_FAILING_ALONE, type CopiesFailingAloneConfig } from './copies-failing-alone';
import { SignedCallers } from './signed-callers';

/** The caller of a request, for whom the gateway calls, and when its budget ends (epoch ms): every call it makes ends by then. */
export interface BudgetedCaller extends CallerContext {
  role: CallerRole;
  deadline: number;
}

/** Which service a channel reaches, where, and how it is described (libs/contracts/proto). */
export interface ServiceAddress {
  /** The service's name: the audience of the signed caller, and its name in problems and logs. */
  name: string;
  /** The gRPC service in the `.proto`. */
  service: string;
  protoFile: string;
  /** gRPC name syntax: `dns:///tail-sync:50051`, `ipv4:127.0.0.1:50051,127.0.0.1:50061`. */
  target: string;
  /** Mutual TLS: the service's certificate must carry its `name`; plaintext without it. */
  tls?: GrpcTlsFiles;
}

type RequestOf<D, M extends keyof D> = D[M] extends MethodDefinition<infer Req, any, any, any> ? Req : never;
type ReplyOf<D, M extends keyof D> = D[M] extends MethodDefinition<any, any, any, infer Res> ? Res : never;
type UnaryMethod = (request: unknown, metadata: Metadata, options: { deadline: number }, callback: (error: ServiceError | null, reply: unknown) => void) => unknown;

/** Status codes of a call that did not get an answer in time or found no copy: the client may try again. */
const UNANSWERED = new Set([status.UNAVAILABLE, status.DEADLINE_EXCEEDED, status.CANCELLED]);

/**
 * One service's gRPC channel (`@nestjs/microservices`' client), balanced round robin over every
 * address its target resolves to, less the copies whose calls lately failed alone (SET_ASIDE).
 * A call carries the signed caller (reused, see SignedCallers), the request's id and trace context
 * beside it, and the request's deadline.
 * Methods the `.proto` marks `NO_SIDE_EFFECTS` are retried on another copy when one fails
 * UNAVAILABLE; grpc-js itself retries any call that never left the gateway.
 */
export class ServiceChannel<Definition> {
  private readonly logger = new Logger('services');
  private readonly proxy: ClientGrpcProxy;
  private readonly client: Record<string, UnaryMethod>;
  private readonly callers: SignedCallers;

  constructor(
    private readonly address: ServiceAddress,
    signer: CallerSigning,
  ) {
    this.callers = new SignedCallers(signer, address.name);
    const protoPath = join(PROTO_ROOT, address.protoFile);
    this.proxy = new ClientGrpcProxy({
      package: PROTO_PACKAGE,
      protoPath,
      url: address.target,
      loader: PROTO_LOADER_OPTIONS,
      ...(address.tls ? { credentials: gatewayChannelCredentials(address.tls) } : {}),
      channelOptions: {
        ...(address.tls ? serviceNameCheck(address.name) : {}),
        'grpc.service_config': JSON.stringify(serviceConfig(address.service, protoPath)),
        // The settings above are the service config: a DNS TXT record must not replace them.
        'grpc.service_config_disable_resolution': 1,
        // Back-off, connection attempts and keep-alive: a restarted or healed copy is found within seconds.
        ...PROMPT_RECONNECTION,
        // A lost copy makes the channel resolve its target again at once (default: at most every
        // 30 s), so a copy added behind the name since the last resolution takes over.
        'grpc.dns_min_time_between_resolutions_ms': 1_000,
      },
    });
    this.client = this.proxy.getClientByServiceName(address.service) as unknown as Record<string, UnaryMethod>;
  }

  call<M extends keyof Definition & string>(method: M, caller: BudgetedCaller, request: RequestOf<Definition, M>): Promise<ReplyOf<Definition, M>> {
    // grpc-js reads waitForReady from the call's metadata options only, not from the service
    // config's methodConfig: without it a call fails at once while no copy is connected.
    const metadata = new Metadata({ waitForReady: true });
    metadata.set(CALL_METADATA.caller, this.callers.token(caller, caller.deadline));
    metadata.set(CALL_METADATA.requestId, caller.requestId);
    if (caller.traceparent !== undefined) metadata.set(CALL_METADATA.traceparent, caller.traceparent);
    return new Promise((resolve, reject) => {
      this.client[method].call(this.client, request, metadata, { deadline: caller.deadline }, (error, reply) => {
        if (error) reject(this.problemOf(method, caller, error));
        else resolve(reply as ReplyOf<Definition, M>);
      });
    });
  }

  close(): void {
    this.proxy.close();
  }

  private problemOf(method: string, caller: BudgetedCaller, error: ServiceError): Error {
    const request = correlationOf(caller);
    if (UNANSWERED.has(error.code)) return new ServiceUnavailable(`The service did not answer in time (${this.address.name}). Try again.`);
    if (error.code === status.UNAUTHENTICATED) {
      // The service refused our signed caller: SERVICE_SIGNING_KEY and its SERVICE_VERIFY_KEY differ.
      this.logger.error({ msg: 'service refused the signed caller', service: this.address.name, method, reason: error.details, ...request });
      return new ServiceUnavailable(`The service refused the gateway (${this.address.name}).`);
    }
    // The service failed unexpectedly; its own log has the cause.
    this.logger.error({ msg: 'service call failed', service: this.address.name, method, code: status[error.code], reason: error.details, ...request });
    return new InternalError();
  }
}

/**
 * A copy whose calls fail while another copy's succeed is set aside for a while (COPIES_FAILING_ALONE):
 * the services answer every problem of a request inside an OK reply, so a failed status means the
 * copy did not serve (UNAVAILABLE: a dependency down; DEADLINE_EXCEEDED: it did not answer in time,
 * e.g. cut off from its database). Checked every second: a copy with over half of its calls
 * failed (of at least 2), while another copy served, gets no calls for 10 s, 10 s longer each time
 * again (up to 30 s). Copies failing alike are the gateway's own trouble and stay; a copy set
 * aside takes calls again at once when no other copy is ready.
 */
const SET_ASIDE: Omit<CopiesFailingAloneConfig, 'child_policy'> = { check_interval_ms: 1_000, base_aside_ms: 10_000, max_aside_ms: 30_000 };

/**
 * Round robin over every copy not set aside (SET_ASIDE). Every call waits for a copy that
 * answers (within its deadline) rather than failing at once while none is connected, e.g. just
 * after the only copy restarted; the `.proto`'s side-effect-free methods are retried up to twice
 * more on another copy.
 */
function serviceConfig(service: string, protoPath: string): object {
  const fullName = `${PROTO_PACKAGE}.${service}`;
  const definition = loadSync(protoPath, PROTO_LOADER_OPTIONS)[fullName] as Record<string, { options?: { idempotency_level?: string } }>;
  const safe = Object.entries(definition).filter(([, method]) => method.options?.idempotency_level === 'NO_SIDE_EFFECTS').map(([name]) => name);
  // A method's own entry replaces the service's, so the retried methods say waitForReady again.
  return {
    loadBalancingConfig: [{ [COPIES_FAILING_ALONE]: { ...SET_ASIDE, child_policy: [{ round_robin: {} }] } }],
    methodConfig: [
      { name: [{ service: fullName }], waitForReady: true },
      ...(safe.length === 0 ? [] : [{
        name: safe.map((method) => ({ service: fullName, method })),
        waitForReady: true,
        retryPolicy: { maxAttempts: 3, initialBackoff: '0.05s', maxBackoff: '0.5s', backoffMultiplier: 2, retryableStatusCodes: ['UNAVAILABLE'] },
      }]),
    ],
  };
}
