import { fail, ok, RpcProblem, RpcReply, RpcRequest } from '@tailsync/contracts';

/** An error a service turns into a problem reply instead of a crash. */
export class ProblemError extends Error {
  constructor(readonly problem: RpcProblem) {
    super(problem.detail ?? problem.title ?? problem.kind);
  }
}

/**
 * Runs a request handler: drops requests whose caller already gave up (the gateway
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
    if (isDependencyDown(error)) {
      return fail({ kind: 'unavailable', title: 'Dependency unavailable', detail: 'A dependency of the service is unavailable; try again shortly.' });
    }
    throw error;
  }
}

/** PostgreSQL's read_only_sql_transaction. */
const READ_ONLY_SQL_TRANSACTION = '25006';
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * The database or the broker is unreachable or shutting down: a 503 for the caller, not a bug.
 * PostgreSQL classes 08 (connection exception) and 57P (operator intervention), pool time-outs,
 * a client used again after its connection died (pg: "… is not queryable"),
 * and 25006: a standby the database's address reached before its promotion refuses writes,
 * LISTEN and NOTIFY with it.
 */
export function isDependencyDown(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || code.startsWith('08') || code.startsWith('57P') || code === READ_ONLY_SQL_TRANSACTION) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /timeout exceeded when trying to connect|Connection terminated|not queryable/i.test(message) || (typeof e.name === 'string' && e.name.startsWith('KafkaJS'));
}
