import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { type ServerUnaryCall, status } from '@grpc/grpc-js';
import { type CallerContext, type ProblemKind, problemToWire, type RpcReply, type RpcRequest, type wire } from '@tailsync/contracts';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { givenRequestId } from '../observability/request-id';
import type { CalledServiceConfig } from '../config/called-service.config';
import { RereadSecret } from '../config/reread-secret';
import { settingFile } from '../config/setting-files';
import { correlationOf, runInRequest, validTraceparent } from '../observability/request-context';
import { CALL_METADATA } from './call-metadata';
import { type CallerIdentity, CallerRefused } from './caller-token';
import { CallerTokenVerifier } from './caller-token-verifier';
import { type MethodRoles, RolesByPath } from './method-roles';
import { serviceVerifyKeys } from './service-verify-keys';
import { VerifiedCallers } from './verified-callers';

type Handler<T, R> = (request: RpcRequest<T>) => Promise<RpcReply<R>>;

/** A reply message of the contract: the result under its field of the `result` oneof, or the problem. */
export type OneofReply<F extends string, R> = { [K in F]: R } | { problem: wire.Problem };

const STATUS_OF: Record<ProblemKind, status> = {
  validation: status.INVALID_ARGUMENT,
  'not-found': status.NOT_FOUND,
  conflict: status.FAILED_PRECONDITION,
  unavailable: status.UNAVAILABLE,
};

/**
 * Where a gRPC call becomes a service request: the caller the gateway signed (refused and logged
 * without one: UNAUTHENTICATED), in a role the method takes (else PERMISSION_DENIED, logged), the
 * request id and trace context beside it, the call's deadline, and the handler's answer turned
 * into the reply message.
 * A dependency that is down answers UNAVAILABLE, so the gateway may try an idempotent call on
 * another copy.
 */
export class ServedCalls implements OnApplicationShutdown {
  private readonly logger = new Logger('grpc');

  constructor(
    private readonly callers: RereadSecret<TrustedGatewayKeys>,
    private readonly roles: RolesByPath,
  ) {}

  onApplicationShutdown(): void {
    this.callers.stop();
  }

  /** For replies with a `result` oneof: the problem travels in the reply. */
  async reply<F extends string, T, R>(call: ServerUnaryCall<unknown, unknown>, body: T, field: F, handle: Handler<T, R>): Promise<OneofReply<F, R>> {
    const reply = await this.run(call, body, handle);
    if (reply.ok) return { [field]: reply.result } as OneofReply<F, R>;
    if (reply.problem.kind === 'unavailable') throw unavailable(reply.problem.detail);
    return { problem: problemToWire(reply.problem) };
  }

  /** For replies without a problem: any problem is the call's status. */
  async answer<T, R>(call: ServerUnaryCall<unknown, unknown>, body: T, handle: Handler<T, R>): Promise<R> {
    const reply = await this.run(call, body, handle);
    if (reply.ok) return reply.result;
    throw new RpcException({ code: STATUS_OF[reply.problem.kind], message: reply.problem.detail ?? reply.problem.kind });
  }

  /**
   * The handlers answer through handleRpc (a late request dropped, problems and dependencies down
   * as replies), as the gateway's request: its lines carry the request's id and trace id. An
   * unexpected failure is logged here, with them, and answers INTERNAL.
   */
  private run<T, R>(call: ServerUnaryCall<unknown, unknown>, body: T, handle: Handler<T, R>): Promise<RpcReply<R>> {
    const caller = this.callerOf(call);
    return runInRequest(caller, async () => {
      const started = performance.now();
      try {
        const reply = await handle({ caller, body, deadline: deadlineOf(call) });
        this.logger.debug({ msg: 'call served', method: call.getPath(), ok: reply.ok, durationMs: Math.round(performance.now() - started), ...correlationOf(caller) });
        return reply;
      } catch (error) {
        if (error instanceof RpcException) throw error;
        this.logger.error({ msg: 'call failed', method: call.getPath(), error: (error as Error)?.message, stack: (error as Error)?.stack, ...correlationOf(caller) });
        throw new RpcException({ code: status.INTERNAL, message: 'Internal error' });
      }
    });
  }

  private callerOf(call: ServerUnaryCall<unknown, unknown>): CallerContext {
    const { metadata } = call;
    let identity: CallerIdentity;
    try {
      identity = this.callers.current.callers.identify(metadata.get(CALL_METADATA.caller)[0]);
    } catch (error) {
      if (!(error instanceof CallerRefused)) throw error;
      throw this.refused(call, status.UNAUTHENTICATED, error.message);
    }
    if (!this.roles.takes(call.getPath(), identity.role)) {
      throw this.refused(call, status.PERMISSION_DENIED, `the caller's role (${identity.role}) may not call this method`, { role: identity.role, domain: identity.domain });
    }
    const requestId = givenRequestId(metadata.get(CALL_METADATA.requestId)[0]) ?? randomUUID();
    const traceparent = validTraceparent(metadata.get(CALL_METADATA.traceparent)[0]);
    return { domain: identity.domain, source: identity.source, requestId, ...(traceparent !== undefined ? { traceparent } : {}) };
  }

  private refused(call: ServerUnaryCall<unknown, unknown>, code: status, reason: string, about: object = {}): RpcException {
    this.logger.warn({ msg: 'call refused', code: status[code], reason, method: call.getPath(), peer: call.getPeer(), ...about });
    return new RpcException({ code, message: reason });
  }
}

/** Where a service's calls enter: its name (the callers' audience), its gRPC service, the roles of its methods. */
export interface ServedService<Definition> {
  audience: string;
  service: string;
  roles: MethodRoles<Definition>;
}

/** The gateway keys a service trusts (their kids), and the callers verified with them. */
interface TrustedGatewayKeys {
  kids: string[];
  callers: VerifiedCallers;
}

/**
 * A service's ServedCalls, trusting the gateway keys `SERVICE_VERIFY_KEY` lists, read again when
 * its file changes: a key added is trusted, and a key removed refused, without a restart. The
 * callers verified with the keys before are forgotten with them.
 */
export function servedCalls<Definition>(config: CalledServiceConfig, served: ServedService<Definition>): ServedCalls {
  const trusted = new RereadSecret<TrustedGatewayKeys>({
    setting: 'SERVICE_VERIFY_KEY',
    text: config.SERVICE_VERIFY_KEY,
    file: settingFile(config, 'SERVICE_VERIFY_KEY'),
    parse: (text) => {
      const keys = serviceVerifyKeys(text);
      return { kids: [...keys.keys()], callers: new VerifiedCallers(new CallerTokenVerifier(keys, served.audience)) };
    },
    describe: ({ kids }) => ({ kids }),
  });
  return new ServedCalls(trusted, new RolesByPath(served.service, served.roles));
}

const unavailable = (detail?: string) => new RpcException({ code: status.UNAVAILABLE, message: detail ?? 'A dependency of the service is unavailable.' });

function deadlineOf(call: ServerUnaryCall<unknown, unknown>): number | undefined {
  const deadline = call.getDeadline();
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}
