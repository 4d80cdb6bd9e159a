/**
 * A request as a service handles it, whatever carried it (gRPC: see libs/contracts/proto). Services
 * never throw a refusal across the wire: they answer a `Problem` the gateway turns into an
 * `application/problem+json` response.
 */
export interface CallerContext {
  domain: string;
  /** The calling service account's clientId: the mapping source of its Mapped IDs. */
  source: string;
  requestId: string;
  /** The W3C `traceparent` of the request the call belongs to, when there is one. */
  traceparent?: string;
}

export interface RpcRequest<T> {
  caller: CallerContext;
  body: T;
  /** Epoch ms after which the gateway has answered 503 and the request must not be acted on (the call's deadline). */
  deadline?: number;
}

export type ProblemKind = 'validation' | 'not-found' | 'conflict' | 'unavailable';

export interface RpcProblem {
  kind: ProblemKind;
  title?: string;
  detail?: string;
  fieldErrors?: Record<string, string[]>;
  generalErrors?: string[];
}

export type RpcReply<T> = { ok: true; result: T } | { ok: false; problem: RpcProblem };

export const ok = <T>(result: T): RpcReply<T> => ({ ok: true, result });
export const fail = (problem: RpcProblem): RpcReply<never> => ({ ok: false, problem });

/** The reply with its result changed by `change`; a problem as it was. */
export const mapReply = <T, R>(reply: RpcReply<T>, change: (result: T) => R): RpcReply<R> => (reply.ok ? ok(change(reply.result)) : reply);
