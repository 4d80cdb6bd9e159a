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

/** Decided rejections (404, 409, validation) and known transient states travel back to the gateway as problems. */
export function asProblem(error: unknown): never {
  if (isTailDomainError(error)) {
    throw new ProblemError({
      kind: error.kind,
      detail: error.message,
      fieldErrors: Object.keys(error.fieldErrors).length > 0 ? error.fieldErrors : undefined,
    });
  }
  if (error instanceof TailListQueryError) {
    throw new ProblemError({ kind: 'validation', fieldErrors: { [error.field]: [error.message] } });
  }
  if (error instanceof ProjectionTimeoutError) {
    throw new ProblemError({ kind: 'unavailable', detail: 'The change was stored but is not readable yet; read it again shortly.' });
  }
  if (error instanceof WrongExpectedVersionError) {
    throw new ProblemError({ kind: 'unavailable', detail: 'Too many concurrent changes to the same tail; try again.' });
  }
  if (error instanceof EventStoreUnavailableError) {
    throw new ProblemError({ kind: 'unavailable', detail: 'The event store is not answering; try again shortly.' });
  }
  // Operator errors (credentials revoked, a stream deleted by hand, a server's limits set below
  // ours): not the caller's fault; logged by the store's health check and the projection.
  if (error instanceof EventStoreAccessDeniedError || error instanceof StreamDeletedError || error instanceof EventStoreRejectedError) {
    throw new ProblemError({ kind: 'unavailable', detail: 'The event store refused this change; an operator has been told.' });
  }
  throw error;
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
    try {
      asProblem(error);
    } catch (thrown) {
      if (thrown instanceof ProblemError && thrown.problem.kind !== 'unavailable') return { problem: problemToWire(thrown.problem) };
      throw thrown;
    }
  }
}
