import { problemFromWire, type RpcProblem, type wire } from '@tailsync/contracts';
import { Conflict, InternalError, NotFound, ServiceUnavailable, ValidationProblem } from '../../problems/domain/problem';

/** A reply message of the contract: its `result` oneof names the field that is set. */
interface OneofReply {
  result?: string;
  problem?: wire.Problem__Output | null;
}

/** The reply's result, or the problem the service answered as the matching HTTP problem. */
export function resultOf<R extends OneofReply, F extends Exclude<keyof R, 'result' | 'problem'> & string>(reply: R, field: F): NonNullable<R[F]> {
  if (reply.result === field) return reply[field] as NonNullable<R[F]>;
  if (reply.problem) throw httpProblem(problemFromWire(reply.problem));
  // A reply with neither: a service that speaks another version of the contract.
  throw new InternalError();
}

function httpProblem({ kind, fieldErrors = {}, generalErrors = [], detail }: RpcProblem): Error {
  switch (kind) {
    case 'validation':
      return new ValidationProblem(fieldErrors, generalErrors);
    case 'not-found':
      return new NotFound(detail);
    case 'conflict':
      return new Conflict(detail ?? 'Conflict.');
    default:
      return new ServiceUnavailable(detail);
  }
}

/** The call's result, or null when the service answered not-found (a lookup that may find nothing). */
export async function unlessNotFound<T>(result: Promise<T>): Promise<T | null> {
  try {
    return await result;
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}
