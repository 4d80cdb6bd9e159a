import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const GIVEN_ID = /^[\w.:-]{1,128}$/;

/** A request id someone else gave, when it is a plain token (safe in a log line). */
export function givenRequestId(given: unknown): string | undefined {
  return typeof given === 'string' && GIVEN_ID.test(given) ? given : undefined;
}

/** The caller's `X-Request-Id` when it is a plain token, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  return givenRequestId(req.headers['x-request-id']) ?? randomUUID();
}
