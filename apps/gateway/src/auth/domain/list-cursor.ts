import { ValidationProblem } from '../../problems/domain/problem';

const POSTGRES_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** `createdAt` as PostgreSQL prints it: exact to the microsecond, unlike a JavaScript Date. */
export interface ListPosition {
  createdAt: string;
  clientId: string;
}

/** The opaque `nextCursor` of the service-account list: where the previous page ended. */
export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.clientId])).toString('base64url');
}

/** A cursor the gateway did not make is a 400, never a database error. */
export function decodeListCursor(cursor: string): ListPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string' || !POSTGRES_TIMESTAMP.test(parsed[0])) {
    throw new ValidationProblem({ cursor: ['cursor is invalid.'] });
  }
  return { createdAt: parsed[0], clientId: parsed[1] };
}
