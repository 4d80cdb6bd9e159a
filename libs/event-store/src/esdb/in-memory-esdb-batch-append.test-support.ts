/**
 * Test support: the in-memory stand-in's `Streams.BatchAppend`, the bidirectional call through
 * which `@eventstore/db-client` 6.2.1 sends every append once `ServerFeatures` lists it (one call
 * shared by all appends of a client). Follows kurrent-io/KurrentDB v24.10.0
 * src/EventStore.Core/Services/Transport/Grpc/Streams.BatchAppend.cs:
 * - a write is the requests of one correlation id, the first with its options, until `is_final`
 *   (:147-208); requests of a correlation the server dropped are ignored (:187-189, :206-208);
 * - errors travel in-band as a `google.rpc.Status` with the correlation id (:155-200, :243-257);
 * - a deadline already past answers `Timeout` (:173-180), and a write still incomplete when the
 *   smaller of its deadline and the server's write timeout (2 s, ClusterVNodeOptions.cs:406)
 *   passes answers `Timeout` (:297-306);
 * - a write whose events' size passes `MaxAppendSize` answers `MaximumAppendSizeExceeded` (:191-200);
 * - a proposed message the server cannot convert answers `BadRequest` (:270-276);
 * - not-leader ends the whole call with the leader's endpoint (:228-231 throws inside the
 *   callback, :216 completes the response channel with it), failing every write in flight on it.
 */
import * as grpc from '@grpc/grpc-js';
import { AllStreamPosition, Empty, StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { BatchAppendReq, BatchAppendResp } from '@eventstore/db-client/generated/streams_pb';
import type { Status } from '@eventstore/db-client/generated/status_pb';
import type { Expected, InMemoryEsdbLog, LogLimits, Proposed } from './in-memory-esdb-log.test-support';
import { sizeOnDisk } from './in-memory-esdb-log.test-support';
import {
  badRequestStatus,
  maximumAppendEventSizeExceededStatus,
  maximumAppendSizeExceededStatus,
  notHandledStatus,
  timeoutStatus,
  wrongExpectedVersionStatus,
} from './in-memory-esdb-statuses.test-support';
import type { FaultQueue, InjectedFault } from './in-memory-esdb-faults.test-support';

/** `WriteTimeoutMs` default (ClusterVNodeOptions.cs:406). */
const WRITE_TIMEOUT_MS = 2_000;

interface PendingWrite {
  streamId: string;
  expected: Expected;
  events: Proposed[];
  size: number;
  timer: NodeJS.Timeout;
}

type BatchCall = grpc.ServerDuplexStream<BatchAppendReq, BatchAppendResp>;

/** A write's answer: an in-band error, or the stream's revision (-1: none) and its last event's position. */
type WriteResult = { error: Status } | { revision: number; position: bigint | null };
type Answer = (correlation: UUID | undefined, streamId: string, result: WriteResult) => void;

function expectedOf(options: BatchAppendReq.Options): Expected {
  if (options.hasStreamPosition()) return { revision: Number(options.getStreamPosition()) };
  if (options.hasNoStream()) return 'no-stream';
  if (options.hasStreamExists()) return 'stream-exists';
  return 'any';
}

/** Milliseconds until the write's deadline: the client sends an absolute time (field 6, `deadline_21_10_0`). */
function msUntilDeadline(options: BatchAppendReq.Options, now: number): number {
  const deadline = options.getDeadline();
  return deadline ? deadline.toDate().getTime() - now : Infinity;
}

export class BatchAppendCalls {
  /** BatchAppend calls received. */
  calls = 0;
  private readonly open = new Set<BatchCall>();

  constructor(
    private readonly log: InMemoryEsdbLog,
    private readonly limits: LogLimits,
    private readonly faults: FaultQueue,
    private readonly clock: () => number,
  ) {}

  serve(call: BatchCall): void {
    this.calls++;
    this.open.add(call);
    const pending = new Map<string, PendingWrite>();
    const answer: Answer = (correlation, streamId, result) => {
      const resp = new BatchAppendResp().setCorrelationId(correlation).setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(streamId, 'utf8')));
      if ('error' in result) resp.setError(result.error);
      else {
        // The stream's revision, or no stream; the position of the write's last event (BatchAppendResp.cs:12-31).
        const success = new BatchAppendResp.Success();
        if (result.revision >= 0) success.setCurrentRevision(String(result.revision));
        else success.setNoStream(new Empty());
        if (result.position !== null) success.setPosition(new AllStreamPosition().setCommitPosition(String(result.position)).setPreparePosition(String(result.position)));
        resp.setSuccess(success);
      }
      if (this.open.has(call)) call.write(resp);
    };
    const end = () => {
      this.open.delete(call);
      for (const p of pending.values()) clearTimeout(p.timer);
      pending.clear();
    };
    call.on('data', (req: BatchAppendReq) => this.receive(call, req, pending, answer));
    call.on('end', () => {
      end();
      call.end();
    });
    call.on('cancelled', end);
    call.on('error', end);
  }

  private receive(
    call: BatchCall,
    req: BatchAppendReq,
    pending: Map<string, PendingWrite>,
    answer: Answer,
  ): void {
    const correlation = req.getCorrelationId();
    const key = correlation?.getString() ?? '';
    const options = req.getOptions();
    if (options) {
      const streamId = Buffer.from(options.getStreamIdentifier()!.getStreamName()).toString('utf8');
      const timeoutMs = Math.min(msUntilDeadline(options, this.clock()), WRITE_TIMEOUT_MS);
      if (timeoutMs <= 0) return answer(correlation, streamId, { error: timeoutStatus() });
      if (!pending.has(key)) {
        const timer = setTimeout(() => {
          if (pending.delete(key)) answer(correlation, streamId, { error: timeoutStatus() });
        }, timeoutMs);
        pending.set(key, { streamId, expected: expectedOf(options), events: [], size: 0, timer });
      }
    }
    const write = pending.get(key);
    if (!write) return;
    for (const m of req.getProposedMessagesList()) {
      const type = m.getMetadataMap().get('type');
      if (type === undefined || m.getMetadataMap().get('content-type') === undefined) {
        this.drop(pending, key);
        return answer(correlation, write.streamId, { error: badRequestStatus("Required Metadata Property 'type' is missing") });
      }
      const event = { id: m.getId()!.getString(), type, data: m.getData_asU8(), metadata: m.getCustomMetadata_asU8() };
      const size = sizeOnDisk(event);
      if (size > this.limits.maxAppendEventSize) {
        this.drop(pending, key);
        return answer(correlation, write.streamId, { error: maximumAppendEventSizeExceededStatus() });
      }
      write.size += size;
      write.events.push(event);
    }
    if (write.size > this.limits.maxAppendSize) {
      this.drop(pending, key);
      return answer(correlation, write.streamId, { error: maximumAppendSizeExceededStatus(this.limits.maxAppendSize) });
    }
    if (!req.getIsFinal()) return;
    this.drop(pending, key);

    const fault = this.faults.take('append');
    if (fault?.hang) return;
    if (fault?.status) return answer(correlation, write.streamId, { error: this.inBand(fault.status) });
    if (fault?.code !== undefined) {
      // A not-leader answer, or a connection lost: the whole call ends, every write on it with it.
      call.emit('error', this.faults.failure(fault));
      return;
    }
    const outcome = this.log.append(write.streamId, write.expected, write.events);
    if (fault?.hangAfterWork) return;
    if (outcome.kind === 'wrong-expected-version') {
      return answer(correlation, write.streamId, { error: wrongExpectedVersionStatus(outcome.current, outcome.expected) });
    }
    answer(correlation, write.streamId, { revision: outcome.revision, position: outcome.position });
  }

  private inBand(status: InjectedFault['status']): Status {
    switch (status) {
      case 'timeout':
        return timeoutStatus();
      case 'not-ready':
        return notHandledStatus('Server Is Not Ready');
      case 'bad-request':
        return badRequestStatus('injected');
      case 'event-too-big':
        return maximumAppendEventSizeExceededStatus();
      default:
        throw new TypeError(`unknown in-band status ${String(status)}`);
    }
  }

  private drop(pending: Map<string, PendingWrite>, key: string): void {
    const write = pending.get(key);
    if (write) clearTimeout(write.timer);
    pending.delete(key);
  }
}
