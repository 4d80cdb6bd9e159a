import type { ServerUnaryCall } from '@grpc/grpc-js';
import type { RpcRequest } from '@tailsync/contracts';
import { handleRpc, traceparentToCarry, type OneofReply, type ServedCalls } from '@tailsync/service-kit';
import type { CallerContext } from '../application/caller-context';
import { asProblem } from './tail-problems';

export type GrpcCall = ServerUnaryCall<unknown, unknown>;

/**
 * Serves one method of `TailSync` on tails: `ServedCalls` verifies the signed caller and its role;
 * a call past its deadline is dropped (the gateway has answered 503); the contract's refusals and
 * known transient states travel back as the reply's `problem`.
 */
export function serveTailCall<F extends string, T, R>(
  calls: ServedCalls,
  call: GrpcCall,
  body: T,
  field: F,
  handle: (body: T, caller: CallerContext) => Promise<R>,
): Promise<OneofReply<F, R>> {
  return calls.reply(call, body, field, (request) => handleRpc(request, ({ caller, body }) => handle(body, acting(caller)).catch(asProblem)));
}

/** The caller of a command: its events keep the request's trace context (the span recorded now, when tracing is on). */
function acting(caller: RpcRequest<unknown>['caller']): CallerContext {
  const traceparent = traceparentToCarry(caller);
  return traceparent === undefined ? { domain: caller.domain, source: caller.source } : { domain: caller.domain, source: caller.source, traceparent };
}
