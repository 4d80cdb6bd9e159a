import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const GIVEN_ID = /^[\w.:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a plain token, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
}
