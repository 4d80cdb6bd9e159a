import { ProblemError } from '@tailsync/service-kit';
import { isTailDomainError } from '../domain/tail.errors';

/** A decided rejection (404, 409, validation) travels back to the gateway as a problem reply. */
export function asProblem(error: unknown): never {
  if (isTailDomainError(error)) {
    throw new ProblemError({
      kind: error.kind,
      detail: error.message,
      fieldErrors: Object.keys(error.fieldErrors).length > 0 ? error.fieldErrors : undefined,
    });
  }
  if (error instanceof Error && /did not reach|timed out|timeout/i.test(error.message)) {
    throw new ProblemError({ kind: 'unavailable', detail: 'The change was stored but is not readable yet; try the read again shortly.' });
  }
  throw error;
}
