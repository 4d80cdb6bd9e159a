/**
 * The envelope of every request-response over Kafka. Services never throw across the wire:
 * they answer a `Problem` the gateway turns into an `application/problem+json` response.
 */
export interface CallerContext {
  domain: string;
  /** The calling service account's clientId: the mapping source of its Mapped IDs. */
  source: string;
  requestId: string;
}

export interface RpcRequest<T> {
  caller: CallerContext;
  body: T;
  /** Epoch ms after which the gateway has answered 503 and the request must not be acted on. */
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

// Not `value`: Nest's Kafka serializer takes any object with a `value` key for a raw Kafka message.
export type RpcReply<T> = { ok: true; result: T } | { ok: false; problem: RpcProblem };

export const ok = <T>(result: T): RpcReply<T> => ({ ok: true, result });
export const fail = (problem: RpcProblem): RpcReply<never> => ({ ok: false, problem });
