import { ErrorType } from '@eventstore/db-client';
import { status } from '@grpc/grpc-js';
import { EventStoreAccessDeniedError, EventStoreRejectedError, EventStoreUnavailableError, StreamDeletedError } from '../event-store.port';

/** Client error types of a server that is slow, unreachable, or not the leader: worth a retry. */
const TRANSIENT = new Set<string>([
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.UNAVAILABLE,
  ErrorType.NOT_LEADER,
  ErrorType.TIMEOUT,
  ErrorType.CANCELLED,
  ErrorType.UNKNOWN,
]);

/**
 * Client errors of a server that rejected the call itself. Client 6.2.1 knows some; it turns the
 * others into `UnknownError`, which then carries either the call's status code (unary calls, e.g. a
 * read from an invalid position: `InvalidArgument`) or, for an in-band BatchAppend status whose
 * details it has no stub for, only the message "Could not recognize <status message>".
 */
const REJECTED = new Set<string>([ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED, ErrorType.MISSING_REQUIRED_METADATA_PROPERTY, ErrorType.INVALID_ARGUMENT]);
const UNRECOGNISED_REJECTION = /^Could not recognize (BadRequest|MaximumAppendEventSizeExceeded)\b/;

function isRejection(error: { type: string; code?: unknown; message?: unknown }): boolean {
  if (REJECTED.has(error.type)) return true;
  return error.type === ErrorType.UNKNOWN && (error.code === status.INVALID_ARGUMENT || UNRECOGNISED_REJECTION.test(String(error.message)));
}

/** Who the connection string says we are, for an access-denied message that names what is missing. */
export function credentialsOf(connectionString: string): string | null {
  const m = /^esdb(?:\+discover)?:\/\/([^@/]+)@/i.exec(connectionString);
  return m ? decodeURIComponent(m[1].split(':')[0]) : null;
}

export function accessDenied(what: string, user: string | null): EventStoreAccessDeniedError {
  const fix = 'a user in $admins, or one granted it by an ACL';
  return new EventStoreAccessDeniedError(
    user === null
      ? `EventStoreDB denied ${what}: the connection string has no credentials; add those of ${fix} (esdb://<user>:<password>@host:2113?tls=true)`
      : `EventStoreDB denied ${what} to user '${user}' of the connection string; use ${fix}`,
  );
}

/**
 * The port's error for a client error: rejections → {@link EventStoreRejectedError}, transient
 * ones (an unknown error that is no rejection among them) → {@link EventStoreUnavailableError},
 * access denied → {@link EventStoreAccessDeniedError}, stream deleted → {@link StreamDeletedError};
 * anything else (stream not found, wrong expected version) is returned as it is, for the caller.
 */
export function toPortError(error: unknown, context: { what: string; streamId?: string; user: string | null }): unknown {
  if (error instanceof EventStoreUnavailableError) return error;
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return error;
  if (isRejection(error as { type: string })) {
    return new EventStoreRejectedError(`EventStoreDB rejected ${context.what} (${type}): ${(error as Error).message}`, error);
  }
  if (TRANSIENT.has(type)) return new EventStoreUnavailableError(`EventStoreDB failed ${context.what} (${type}): ${(error as Error).message}`, error);
  if (type === ErrorType.ACCESS_DENIED) return accessDenied(context.what, context.user);
  if (type === ErrorType.STREAM_DELETED) return new StreamDeletedError(context.streamId ?? '$all');
  return error;
}

/** The read found no such stream (never written, or deleted). */
export function isStreamNotFound(err: unknown): boolean {
  return (err as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND;
}
