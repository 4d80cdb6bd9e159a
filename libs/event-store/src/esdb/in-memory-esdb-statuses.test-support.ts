/**
 * Test support: the `google.rpc.Status` values EventStoreDB puts in a `BatchAppendResp` (errors
 * travel in-band there, not as the call's status), built as the server's `Status.cs` builds them
 * (kurrent-io/KurrentDB v24.10.0, src/EventStore.Core/Services/Transport/Grpc/Status.cs; 25.1 adds
 * `MaximumAppendEventSizeExceeded`, src/KurrentDB.Core/Services/Transport/Grpc/Status.cs:61-70).
 */
import { Any } from 'google-protobuf/google/protobuf/any_pb';
import { Empty as ProtoEmpty } from 'google-protobuf/google/protobuf/empty_pb';
import type { Message } from 'google-protobuf';
import { Code } from '@eventstore/db-client/generated/code_pb';
import { AccessDenied, BadRequest, Empty, MaximumAppendSizeExceeded, Timeout, WrongExpectedVersion } from '@eventstore/db-client/generated/shared_pb';
import { Status } from '@eventstore/db-client/generated/status_pb';
import type { Expected } from './in-memory-esdb-log.test-support';

function status(code: Code, message: string, details: Message, typeName: string): Status {
  const any = new Any();
  any.pack(details.serializeBinary(), typeName);
  return new Status().setCode(code).setMessage(message).setDetails(any);
}

/** Status.cs:13-18. */
export function wrongExpectedVersionStatus(current: number | null, expected: Expected): Status {
  const w = new WrongExpectedVersion();
  if (current === null) w.setCurrentNoStream(new Empty());
  else w.setCurrentStreamRevision(String(current));
  if (expected === 'any') w.setExpectedAny(new Empty());
  else if (expected === 'no-stream') w.setExpectedNoStream(new Empty());
  else if (expected === 'stream-exists') w.setExpectedStreamExists(new Empty());
  else w.setExpectedStreamPosition(String(expected.revision));
  return status(Code.ALREADY_EXISTS, 'WrongExpectedVersion', w, 'event_store.client.WrongExpectedVersion');
}

/** Status.cs:28-32. */
export const accessDeniedStatus = () => status(Code.PERMISSION_DENIED, 'AccessDenied', new AccessDenied(), 'event_store.client.AccessDenied');

/** Status.cs:34-38: the server's write timeout, or a deadline already past when the write arrived. */
export const timeoutStatus = () => status(Code.DEADLINE_EXCEEDED, 'Timeout', new Timeout(), 'event_store.client.Timeout');

/** Status.cs:52-59. */
export const maximumAppendSizeExceededStatus = (max: number) =>
  status(Code.INVALID_ARGUMENT, 'MaximumAppendSizeExceeded', new MaximumAppendSizeExceeded().setMaxappendsize(max), 'event_store.client.MaximumAppendSizeExceeded');

/** Status.cs:61-65: e.g. a proposed message without its `type` or `content-type` metadata. */
export const badRequestStatus = (message: string) => status(Code.INVALID_ARGUMENT, 'BadRequest', new BadRequest().setMessage(message), 'event_store.client.BadRequest');

/**
 * 25.1's `MaximumAppendEventSizeExceeded` (its message type is unknown to client 6.2.1's stubs;
 * an empty message stands in for its fields: the client only reads the type name).
 */
export const maximumAppendEventSizeExceededStatus = () =>
  status(Code.INVALID_ARGUMENT, 'MaximumAppendEventSizeExceeded', new ProtoEmpty(), 'event_store.client.MaximumAppendEventSizeExceeded');

/**
 * A write the node did not handle (not ready, too busy): `Details` an `Empty`, no code, the reason
 * as the message (Streams.BatchAppend.cs:222-236).
 */
export const notHandledStatus = (reason: 'Server Is Not Ready' | 'Server Is Busy') =>
  status(Code.OK, reason, new ProtoEmpty(), 'google.protobuf.Empty');
