/** Test support: failures the in-memory EventStoreDB stand-in answers instead of doing a call's work. */
import * as grpc from '@grpc/grpc-js';

/** What the next matching call answers instead of doing its work. */
export interface InjectedFault {
  method: 'read' | 'append';
  /**
   * gRPC status code the call fails with (with `exception` metadata, as EventStoreDB sends). On
   * BatchAppend the whole call fails, every write in flight on it with it: a not-leader answer or
   * a lost connection.
   */
  code?: grpc.status;
  exception?: string;
  /** Extra trailing metadata (e.g. `leader-endpoint-host`). */
  metadata?: Record<string, string>;
  /**
   * An append answered as the server answers it on each path: on BatchAppend in-band for that write
   * (`timeout`: `Timeout`; `not-ready`: a `NotHandled` status; `bad-request`: `BadRequest`;
   * `event-too-big`: 25.1's `MaximumAppendEventSizeExceeded`); on unary Append as the call's status.
   */
  status?: 'timeout' | 'not-ready' | 'bad-request' | 'event-too-big';
  /** Do the work (append: store the events), then never answer. */
  hangAfterWork?: boolean;
  /** Never answer, do nothing. */
  hang?: boolean;
}

export class FaultQueue {
  private readonly faults: InjectedFault[] = [];

  push(fault: InjectedFault): void {
    this.faults.push(fault);
  }

  take(method: InjectedFault['method']): InjectedFault | undefined {
    const i = this.faults.findIndex((f) => f.method === method);
    return i < 0 ? undefined : this.faults.splice(i, 1)[0];
  }

  failure(fault: InjectedFault): Partial<grpc.StatusObject> {
    const metadata = new grpc.Metadata();
    if (fault.exception) metadata.set('exception', fault.exception);
    for (const [k, v] of Object.entries(fault.metadata ?? {})) metadata.set(k, v);
    return { code: fault.code ?? grpc.status.UNAVAILABLE, details: fault.exception ?? 'injected', metadata };
  }
}
