/**
 * Test support (imported by specs only): an in-memory stand-in for an EventStoreDB node, serving
 * the gRPC `Streams` service (`Read`, `Append`) that `@eventstore/db-client` 6.2.1 calls, over a
 * real HTTP/2 connection. No EventStoreDB server can be had where the tests run; this lets the
 * adapter meet the real client and grpc-js: their flow control, cancellation, deadlines and error
 * conversion. It is not the server: no `$all` ACLs, no scavenging, no server-side filter, no
 * `BatchAppend` (the client then appends with `Append`, one call per stream write).
 *
 * Like EventStoreDB 24.10 it limits concurrent calls per connection (Kestrel's default, 100), writes
 * a read's events only as fast as the client takes them (HTTP/2 flow control), reads `$all` from a
 * position including the event at it, answers a retried append (same ids, same place) with the
 * original's revision and position, and reports the position of an append's last event.
 */
import * as grpc from '@grpc/grpc-js';
import { Empty, StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import { AppendReq, AppendResp, ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';

interface Recorded {
  streamId: string;
  revision: number;
  id: string;
  type: string;
  data: Uint8Array;
  metadata: Uint8Array;
  position: bigint;
}

/** What the next matching call answers instead of doing its work. */
export interface InjectedFault {
  method: 'read' | 'append';
  /** gRPC status code of the failure (with `exception` metadata, as EventStoreDB sends). */
  code?: grpc.status;
  exception?: string;
  /** Extra trailing metadata (e.g. `leader-endpoint-host`). */
  metadata?: Record<string, string>;
  /** Do the work (append: store the events), then never answer. */
  hangAfterWork?: boolean;
  /** Never answer, do nothing. */
  hang?: boolean;
}

const EVENT_SIZE = 128n;
/** .NET ticks (100 ns) since the Unix epoch, as EventStoreDB's `created`. */
const ticks = (ms: number) => (BigInt(ms) * 10_000n).toString();

export class InMemoryEsdbServer {
  private readonly log: Recorded[] = [];
  private readonly streams = new Map<string, Recorded[]>();
  private readonly faults: InjectedFault[] = [];
  /** Read calls neither finished nor cancelled. */
  openReads = 0;
  /** The most read calls open at once. */
  maxOpenReads = 0;
  /** Read calls received. */
  readCalls = 0;
  /** Read calls the client cancelled. */
  cancelledReads = 0;
  /** Append calls received (including failed ones). */
  appendCalls = 0;

  private constructor(
    private readonly server: grpc.Server,
    readonly port: number,
  ) {}

  static async start(): Promise<InMemoryEsdbServer> {
    const server = new grpc.Server({ 'grpc.max_concurrent_streams': 100 });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    const fake = new InMemoryEsdbServer(server, port);
    server.addService(StreamsService as unknown as grpc.ServiceDefinition, {
      read: (call: grpc.ServerWritableStream<ReadReq, ReadResp>) => void fake.read(call),
      append: (call: grpc.ServerReadableStream<AppendReq, AppendResp>, callback: grpc.sendUnaryData<AppendResp>) =>
        fake.append(call, callback),
    });
    return fake;
  }

  get connectionString(): string {
    return `esdb://127.0.0.1:${this.port}?tls=false`;
  }

  /** The next call of `fault.method` fails (or hangs) as described; faults queue up in order. */
  inject(fault: InjectedFault): void {
    this.faults.push(fault);
  }

  /** Appends directly (no gRPC), e.g. to fill the log quickly. */
  seed(streamId: string, count: number, type = 'Seeded', data: Record<string, unknown> = {}): void {
    for (let i = 0; i < count; i++) {
      this.store(streamId, { id: crypto.randomUUID(), type, data: Buffer.from(JSON.stringify(data)), metadata: Buffer.from('{}') });
    }
  }

  /** Empties the log, as a store that was reset (positions start over). */
  reset(): void {
    this.log.length = 0;
    this.streams.clear();
  }

  async stop(): Promise<void> {
    this.server.forceShutdown();
  }

  private takeFault(method: InjectedFault['method']): InjectedFault | undefined {
    const i = this.faults.findIndex((f) => f.method === method);
    return i < 0 ? undefined : this.faults.splice(i, 1)[0];
  }

  private failure(fault: InjectedFault): Partial<grpc.StatusObject> {
    const metadata = new grpc.Metadata();
    if (fault.exception) metadata.set('exception', fault.exception);
    for (const [k, v] of Object.entries(fault.metadata ?? {})) metadata.set(k, v);
    return { code: fault.code ?? grpc.status.UNAVAILABLE, details: fault.exception ?? 'injected', metadata };
  }

  private store(streamId: string, e: { id: string; type: string; data: Uint8Array; metadata: Uint8Array }): Recorded {
    const stream = this.streams.get(streamId) ?? [];
    this.streams.set(streamId, stream);
    const position = (this.log.length > 0 ? this.log[this.log.length - 1].position : 0n) + EVENT_SIZE;
    const recorded = { ...e, streamId, revision: stream.length, position };
    stream.push(recorded);
    this.log.push(recorded);
    return recorded;
  }

  private async read(call: grpc.ServerWritableStream<ReadReq, ReadResp>): Promise<void> {
    this.readCalls++;
    this.maxOpenReads = Math.max(this.maxOpenReads, ++this.openReads);
    let open = true;
    const finish = () => {
      if (open) this.openReads--;
      open = false;
    };
    call.on('cancelled', () => {
      if (open) this.cancelledReads++;
      finish();
    });
    const fault = this.takeFault('read');
    if (fault?.hang || fault?.hangAfterWork) return;
    if (fault) {
      finish();
      call.emit('error', this.failure(fault));
      return;
    }
    const options = call.request.getOptions()!;
    const count = Number(options.getCount());
    const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
    let events: Recorded[];
    if (options.hasAll()) {
      const all = options.getAll()!;
      if (all.hasPosition()) {
        const from = BigInt(all.getPosition()!.getCommitPosition());
        events = backwards ? this.log.filter((e) => e.position < from).reverse() : this.log.filter((e) => e.position >= from);
      } else if (all.hasEnd()) events = backwards ? [...this.log].reverse() : [];
      else events = backwards ? [] : this.log;
    } else {
      const s = options.getStream()!;
      const name = Buffer.from(s.getStreamIdentifier()!.getStreamName()).toString('utf8');
      const stream = this.streams.get(name);
      if (!stream) {
        const notFound = new ReadResp.StreamNotFound();
        notFound.setStreamIdentifier(s.getStreamIdentifier());
        await this.send(call, new ReadResp().setStreamNotFound(notFound), () => open);
        call.end();
        finish();
        return;
      }
      if (s.hasRevision()) {
        const from = Number(s.getRevision());
        events = backwards ? stream.filter((e) => e.revision <= from).reverse() : stream.filter((e) => e.revision >= from);
      } else if (s.hasEnd()) events = backwards ? [...stream].reverse() : [];
      else events = backwards ? [] : stream;
    }
    for (const e of events.slice(0, count)) {
      if (!open) return;
      await this.send(call, this.readResp(e), () => open);
    }
    if (open) call.end();
    finish();
  }

  /** Writes one message, waiting while the client does not take them (the call stalls like the server's). */
  private async send(call: grpc.ServerWritableStream<ReadReq, ReadResp>, resp: ReadResp, open: () => boolean): Promise<void> {
    if (call.write(resp) || !open()) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        call.off('drain', done);
        call.off('cancelled', done);
        resolve();
      };
      call.on('drain', done);
      call.on('cancelled', done);
    });
  }

  private readResp(e: Recorded): ReadResp {
    const recorded = new ReadResp.ReadEvent.RecordedEvent();
    recorded.setId(new UUID().setString(e.id));
    recorded.setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(e.streamId, 'utf8')));
    recorded.setStreamRevision(String(e.revision));
    recorded.setCommitPosition(e.position.toString());
    recorded.setPreparePosition(e.position.toString());
    const metadata = recorded.getMetadataMap();
    metadata.set('type', e.type);
    metadata.set('content-type', 'application/json');
    metadata.set('created', ticks(Date.now()));
    recorded.setData(e.data);
    recorded.setCustomMetadata(e.metadata);
    const read = new ReadResp.ReadEvent();
    read.setEvent(recorded);
    read.setCommitPosition(e.position.toString());
    return new ReadResp().setEvent(read);
  }

  private append(call: grpc.ServerReadableStream<AppendReq, AppendResp>, callback: grpc.sendUnaryData<AppendResp>): void {
    this.appendCalls++;
    let options: AppendReq.Options | undefined;
    const proposed: AppendReq.ProposedMessage[] = [];
    call.on('data', (req: AppendReq) => {
      if (req.hasOptions()) options = req.getOptions();
      else if (req.hasProposedMessage()) proposed.push(req.getProposedMessage()!);
    });
    call.on('end', () => {
      const fault = this.takeFault('append');
      if (fault?.hang) return;
      if (fault && !fault.hangAfterWork) return callback(this.failure(fault) as grpc.ServiceError);
      const resp = this.appendNow(options!, proposed);
      if (!fault) callback(null, resp);
    });
  }

  private appendNow(options: AppendReq.Options, proposed: AppendReq.ProposedMessage[]): AppendResp {
    const streamId = Buffer.from(options.getStreamIdentifier()!.getStreamName()).toString('utf8');
    const stream = this.streams.get(streamId) ?? [];
    const ids = proposed.map((m) => m.getId()!.getString());
    const current = stream.length - 1; // -1: no stream
    const expected = options.hasRevision() ? Number(options.getRevision()) : options.hasNoStream() ? -1 : null;
    const success = (last: Recorded) => {
      const s = new AppendResp.Success();
      s.setCurrentRevision(String(last.revision));
      s.setPosition(new AppendResp.Position().setCommitPosition(last.position.toString()).setPreparePosition(last.position.toString()));
      return new AppendResp().setSuccess(s);
    };
    // A retry of an append already stored at the same place (with 'any': anywhere): the original's result.
    const from = expected === null ? stream.findIndex((e) => e.id === ids[0]) : expected + 1;
    const storedThere = stream.slice(from, from + ids.length);
    if (from >= 0 && ids.length > 0 && storedThere.length === ids.length && storedThere.every((e, i) => e.id === ids[i])) {
      return success(storedThere[storedThere.length - 1]);
    }
    if (expected !== null && expected !== current) {
      const w = new AppendResp.WrongExpectedVersion();
      if (current >= 0) w.setCurrentRevision(String(current));
      else w.setCurrentNoStream(new Empty());
      if (expected >= 0) w.setExpectedRevision(String(expected));
      else w.setExpectedNoStream(new Empty());
      return new AppendResp().setWrongExpectedVersion(w);
    }
    let last: Recorded | undefined;
    for (const m of proposed) {
      last = this.store(streamId, {
        id: m.getId()!.getString(),
        type: m.getMetadataMap().get('type') ?? '',
        data: m.getData_asU8(),
        metadata: m.getCustomMetadata_asU8(),
      });
    }
    return success(last!);
  }
}
