import { RpcReply } from '@tailsync/contracts';
import { Conflict, NotFound, ServiceUnavailable, ValidationProblem } from '../problems/problem';

/** The service's result, or the problem it answered as the matching HTTP problem. */
export function unwrap<T>(reply: RpcReply<T>): T {
  if (reply.ok) return reply.result;
  const { kind, fieldErrors = {}, generalErrors = [], detail } = reply.problem;
  switch (kind) {
    case 'validation':
      return throwing(new ValidationProblem(fieldErrors, generalErrors));
    case 'not-found':
      return throwing(new NotFound(detail));
    case 'conflict':
      return throwing(new Conflict(detail ?? 'Conflict.'));
    default:
      return throwing(new ServiceUnavailable(detail));
  }
}

const throwing = (problem: Error): never => {
  throw problem;
};
