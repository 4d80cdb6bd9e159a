import {
  EventStoreAccessDeniedError,
  EventStoreRejectedError,
  EventStoreUnavailableError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from '@tailsync/event-store';
import { problemToWire } from '@tailsync/contracts';
import { type OneofReply, ProblemError } from '@tailsync/service-kit';
import { isTailDomainError } from '../domain/tail.errors';
import { ProjectionTimeoutError } from '../infrastructure/read-model/tails.projection';
import { TailListQueryError } from '../infrastructure/read-model/tails.read-model';

/** Decided rejections (404, 409, validation) and known transient states, as the problems the gateway is told; anything else `undefined`. */
export function problemOf(error: unknown): ProblemError | undefined {
  if (isTailDomainError(error)) {
    return new ProblemError({
      kind: error.kind,
      detail: error.message,
      fieldErrors: Object.keys(error.fieldErrors).length > 0 ? error.fieldErrors : undefined,
    });
  }
  if (error instanceof TailListQueryError) {
    return new ProblemError({ kind: 'validation', fieldErrors: { [error.field]: [error.message] } });
  }
  if (error instanceof ProjectionTimeoutError) {
    return new ProblemError({ kind: 'unavailable', detail: 'The change was stored but is not readable yet; read it again shortly.' });
  }
  if (error instanceof WrongExpectedVersionError) {
    return new ProblemError({ kind: 'unavailable', detail: 'Too many concurrent changes to the same tail; try again.' });
  }
  if (error instanceof EventStoreUnavailableError) {
    return new ProblemError({ kind: 'unavailable', detail: 'The event store is not answering; try again shortly.' });
  }
  // Operator errors (credentials revoked, a stream deleted by hand, a server's limits set below
  // ours): not the caller's fault; logged by the store's health check and the projection.
  if (error instanceof EventStoreAccessDeniedError || error instanceof StreamDeletedError || error instanceof EventStoreRejectedError) {
    return new ProblemError({ kind: 'unavailable', detail: 'The event store refused this change; an operator has been told.' });
  }
  return undefined;
}

/** Throws the error's problem, so it travels back to the gateway in the reply; any other error as it is. */
export function asProblem(error: unknown): never {
  throw problemOf(error) ?? error;
}

/**
 * One answer among the several of a call (`GetTails`): a decided rejection (404 …) is that answer's
 * own problem, as it would be alone; a transient state or a bug fails the whole call, as it would
 * fail each of them alone.
 */
export async function ownReply<F extends string, R>(field: F, answer: Promise<R>): Promise<OneofReply<F, R>> {
  try {
    return { [field]: await answer } as OneofReply<F, R>;
  } catch (error) {
    const problem = problemOf(error);
    if (problem && problem.problem.kind !== 'unavailable') return { problem: problemToWire(problem.problem) };
    throw problem ?? error;
  }
}
