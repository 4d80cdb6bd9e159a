import { fail, ok, RpcProblem, RpcReply, RpcRequest } from '@tailsync/contracts';

/** An error a service turns into a problem reply instead of a crash. */
export class ProblemError extends Error {
  constructor(readonly problem: RpcProblem) {
    super(problem.detail ?? problem.title ?? problem.kind);
  }
}

/**
 * Runs a request-response handler: drops requests whose caller already gave up (the gateway
 * answered 503, so acting late would surprise it) and turns ProblemErrors into problem replies.
 */
export async function handleRpc<T, R>(
  request: RpcRequest<T>,
  handler: (request: RpcRequest<T>) => Promise<R>,
): Promise<RpcReply<R>> {
  if (request.deadline !== undefined && Date.now() > request.deadline) {
    return fail({ kind: 'unavailable', title: 'Request expired', detail: 'The request expired before it could be served.' });
  }
  try {
    return ok(await handler(request));
  } catch (error) {
    if (error instanceof ProblemError) return fail(error.problem);
    throw error;
  }
}
