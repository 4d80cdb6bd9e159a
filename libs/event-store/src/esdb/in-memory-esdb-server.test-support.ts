/**
 * Test support (imported by specs only): an in-memory stand-in for an EventStoreDB node, serving
 * over a real HTTP/2 connection the gRPC calls `@eventstore/db-client` 6.2.1 makes: `ServerFeatures`,
 * `Streams.Read`, `Streams.BatchAppend` (the client's path for every append once `ServerFeatures`
 * lists it) and `Streams.Append` (its fallback, for a server without `ServerFeatures`). No server
 * can be had where the tests run; this lets the adapter meet the real client and grpc-js: their
 * flow control, cancellation, deadlines, shared BatchAppend call and error conversion.
 *
 * Reproduced from EventStoreDB 24.10's source (kurrent-io/KurrentDB tag v24.10.0; files and lines
 * in the note of issue 32 and where each is done): `ServerFeatures` as ServerFeatures.cs builds it;
 * BatchAppend (see its file); the append-size limit; system events in `$all` from the start; an
 * event's `created` recorded at write time; a read of `$all` from a position that is no event's
 * answered `InvalidArgument` "Trying to read from an invalid position." (RpcExceptions.cs:250-251,
 * Streams.Read.cs:319-320); `StreamExists`; a retried append (same ids, same place) answered with
 * the original's revision and position; 100 concurrent calls per connection (Kestrel's default);
 * a read written only as fast as the client takes it (HTTP/2 flow control).
 *
 * Not the server: no ACLs or users, no scavenging, no server-side filter and no link resolution
 * (a read asking for either fails, UNIMPLEMENTED), no subscriptions (they fail likewise), commit = prepare position.
 */
import * as grpc from '@grpc/grpc-js';
import { Empty, StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { ServerFeaturesService } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import { SupportedMethod, SupportedMethods } from '@eventstore/db-client/generated/serverfeatures_pb';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import { AppendReq, AppendResp, BatchAppendReq, BatchAppendResp, ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';
import { BatchAppendCalls } from './in-memory-esdb-batch-append.test-support';
import { FaultQueue, type InjectedFault } from './in-memory-esdb-faults.test-support';
import { ESDB_24_10_LIMITS, InMemoryEsdbLog, sizeOnDisk, type Expected, type LogLimits, type Proposed, type Recorded } from './in-memory-esdb-log.test-support';

export type { InjectedFault } from './in-memory-esdb-faults.test-support';

export interface InMemoryEsdbServerOptions {
  /**
   * `batch` (default): a 21.10+ server, listing `BatchAppend` in `ServerFeatures`, as every server
   * the client meets in production. `unary`: a server without `ServerFeatures` (before 21.10): the
   * client appends with one `Append` call per write.
   */
  appends?: 'batch' | 'unary';
  /** The server's limits (24.10's defaults unless given). */
  limits?: Partial<LogLimits>;
  /** How far the server's clock is ahead of this process's (negative: behind), for `created`. */
  clockOffsetMs?: number;
}

/** .NET ticks (100 ns) since the Unix epoch, as EventStoreDB's `created`. */
const ticks = (ms: number) => (BigInt(ms) * 10_000n).toString();

/** What a fresh node writes before any client: its epoch (EpochManager.cs:325-332) and its default users (UserManagementService.cs:404). */
const FRESH_NODE_EVENTS: [string, string][] = [
  ['$epoch-information', '$epoch-information'],
  ['$users', '$UserCreated'],
  ['$user-admin', '$User'],
  ['$users', '$UserCreated'],
  ['$user-ops', '$User'],
];

const SERVER_VERSION = '24.10.0';

export class InMemoryEsdbServer {
  private readonly log: InMemoryEsdbLog;
  private readonly faults = new FaultQueue();
  private readonly batches: BatchAppendCalls;
  private readonly limits: LogLimits;
  /** Read calls neither finished nor cancelled. */
  openReads = 0;
  /** The most read calls open at once. */
  maxOpenReads = 0;
  /** Read calls received. */
  readCalls = 0;
  /** Read calls the client cancelled. */
  cancelledReads = 0;
  /** Unary `Append` calls received (including failed ones). */
  appendCalls = 0;

  private constructor(
    private readonly server: grpc.Server,
    readonly port: number,
    options: InMemoryEsdbServerOptions,
  ) {
    const offset = options.clockOffsetMs ?? 0;
    const clock = () => Date.now() + offset;
    this.limits = { ...ESDB_24_10_LIMITS, ...options.limits };
    this.log = new InMemoryEsdbLog(clock);
    this.batches = new BatchAppendCalls(this.log, this.limits, this.faults, clock);
    this.writeFreshNodeEvents();
  }

  static async start(options: InMemoryEsdbServerOptions = {}): Promise<InMemoryEsdbServer> {
    const server = new grpc.Server({ 'grpc.max_concurrent_streams': 100 });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    const fake = new InMemoryEsdbServer(server, port, options);
    const batch = (options.appends ?? 'batch') === 'batch';
    server.addService(StreamsService as unknown as grpc.ServiceDefinition, {
      read: (call: grpc.ServerWritableStream<ReadReq, ReadResp>) => void fake.read(call),
      append: (call: grpc.ServerReadableStream<AppendReq, AppendResp>, callback: grpc.sendUnaryData<AppendResp>) => fake.append(call, callback),
      ...(batch ? { batchAppend: (call: grpc.ServerDuplexStream<BatchAppendReq, BatchAppendResp>) => fake.batches.serve(call) } : {}),
    });
    if (batch) {
      server.addService(ServerFeaturesService as unknown as grpc.ServiceDefinition, {
        getSupportedMethods: (_call: unknown, callback: grpc.sendUnaryData<SupportedMethods>) => callback(null, fake.supportedMethods()),
      });
    }
    return fake;
  }

  get connectionString(): string {
    return `esdb://127.0.0.1:${this.port}?tls=false`;
  }

  /** BatchAppend calls received: the client opens one per connection and sends every append on it. */
  get batchAppendCalls(): number {
    return this.batches.calls;
  }

  /** Every event of `$all`, system events included, in log order. */
  get all(): readonly Recorded[] {
    return this.log.events;
  }

  /** The next call of `fault.method` fails (or hangs) as described; faults queue up in order. */
  inject(fault: InjectedFault): void {
    this.faults.push(fault);
  }

  /** Appends directly (no gRPC), e.g. to fill the log quickly. */
  seed(streamId: string, count: number, type = 'Seeded', data: Record<string, unknown> = {}): void {
    for (let i = 0; i < count; i++) {
      this.log.store(streamId, { id: crypto.randomUUID(), type, data: Buffer.from(JSON.stringify(data)), metadata: Buffer.from('{}') });
    }
  }

  /** Empties the log, as a store whose data was wiped: it starts over as a fresh node. */
  reset(): void {
    this.log.reset();
    this.writeFreshNodeEvents();
  }

  async stop(): Promise<void> {
    this.server.forceShutdown();
  }

  private writeFreshNodeEvents(): void {
    for (const [streamId, type] of FRESH_NODE_EVENTS) {
      this.log.store(streamId, { id: crypto.randomUUID(), type, data: Buffer.from('{}'), metadata: new Uint8Array() });
    }
  }

  /**
   * As ServerFeatures.cs:26-55 builds it: every method of a `client` service, names in lower case,
   * `Read` with features `position` and `events`, `BatchAppend` with `deadline_duration`.
   */
  private supportedMethods(): SupportedMethods {
    const streams = 'event_store.client.streams.streams';
    const method = (name: string, features: string[] = []) =>
      new SupportedMethod().setServiceName(streams).setMethodName(name).setFeaturesList(features);
    return new SupportedMethods()
      .setEventStoreServerVersion(SERVER_VERSION)
      .setMethodsList([
        method('read', ['position', 'events']),
        method('append'),
        method('batchappend', ['deadline_duration']),
        new SupportedMethod().setServiceName('event_store.client.server_features.serverfeatures').setMethodName('getsupportedmethods'),
      ]);
  }

  private async read(call: grpc.ServerWritableStream<ReadReq, ReadResp>): Promise<void> {
    this.readCalls++;
    this.maxOpenReads = Math.max(this.maxOpenReads, ++this.openReads);
    let open = true;
    const finish = () => {
      if (open) this.openReads--;
      open = false;
    };
    const fail = (status: Partial<grpc.StatusObject>) => {
      finish();
      call.emit('error', status);
    };
    call.on('cancelled', () => {
      if (open) this.cancelledReads++;
      finish();
    });
    const fault = this.faults.take('read');
    if (fault?.hang || fault?.hangAfterWork) return;
    if (fault) return fail(this.faults.failure(fault));
    const options = call.request.getOptions()!;
    if (options.hasFilter()) return fail({ code: grpc.status.UNIMPLEMENTED, details: 'in-memory stand-in: server-side filters are not implemented' });
    if (options.hasSubscription()) return fail({ code: grpc.status.UNIMPLEMENTED, details: 'in-memory stand-in: subscriptions are not implemented' });
    if (options.getResolveLinks()) return fail({ code: grpc.status.UNIMPLEMENTED, details: 'in-memory stand-in: resolveLinkTos is not implemented' });
    const count = Number(options.getCount());
    const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
    let events: readonly Recorded[];
    if (options.hasAll()) {
      const all = options.getAll()!;
      const log = this.log.events;
      if (all.hasPosition()) {
        const commit = BigInt(all.getPosition()!.getCommitPosition());
        const prepare = BigInt(all.getPosition()!.getPreparePosition());
        if (commit !== prepare || !this.log.isReadablePosition(commit)) {
          return fail({ code: grpc.status.INVALID_ARGUMENT, details: 'Trying to read from an invalid position.' });
        }
        events = backwards ? log.filter((e) => e.position < commit).reverse() : log.filter((e) => e.position >= commit);
      } else if (all.hasEnd()) events = backwards ? [...log].reverse() : [];
      else events = backwards ? [] : log;
    } else {
      const s = options.getStream()!;
      const name = Buffer.from(s.getStreamIdentifier()!.getStreamName()).toString('utf8');
      const stream = this.log.stream(name);
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
    metadata.set('created', ticks(e.created));
    recorded.setData(e.data);
    recorded.setCustomMetadata(e.metadata);
    const read = new ReadResp.ReadEvent();
    read.setEvent(recorded);
    read.setCommitPosition(e.position.toString());
    return new ReadResp().setEvent(read);
  }

  /** Unary `Append` (Streams.Append.cs): errors are the call's status. */
  private append(call: grpc.ServerReadableStream<AppendReq, AppendResp>, callback: grpc.sendUnaryData<AppendResp>): void {
    this.appendCalls++;
    let options: AppendReq.Options | undefined;
    const proposed: Proposed[] = [];
    call.on('data', (req: AppendReq) => {
      if (req.hasOptions()) options = req.getOptions();
      else if (req.hasProposedMessage()) {
        const m = req.getProposedMessage()!;
        proposed.push({ id: m.getId()!.getString(), type: m.getMetadataMap().get('type') ?? '', data: m.getData_asU8(), metadata: m.getCustomMetadata_asU8() });
      }
    });
    call.on('end', () => {
      const fault = this.faults.take('append');
      if (fault?.hang) return;
      if (fault?.status) return callback(this.unaryStatus(fault.status) as grpc.ServiceError);
      if (fault && !fault.hangAfterWork) return callback(this.faults.failure(fault) as grpc.ServiceError);
      // Streams.Append.cs:57-78: the events' sizes are summed as they arrive, and the call fails
      // once the sum passes MaxAppendSize.
      let size = 0;
      for (const e of proposed) {
        size += sizeOnDisk(e);
        if (size > this.limits.maxAppendSize) return callback(this.unaryStatus('append-too-big') as grpc.ServiceError);
      }
      const resp = this.appendNow(options!, proposed);
      if (!fault) callback(null, resp);
    });
  }

  /** The call status unary `Append` fails with (RpcExceptions.cs). */
  private unaryStatus(status: NonNullable<InjectedFault['status']> | 'append-too-big'): Partial<grpc.StatusObject> {
    const metadata = new grpc.Metadata();
    switch (status) {
      case 'timeout':
        return { code: grpc.status.ABORTED, details: 'Operation timed out: injected', metadata };
      case 'not-ready':
        return { code: grpc.status.UNAVAILABLE, details: 'Server Is Not Ready', metadata };
      case 'bad-request':
        metadata.set('exception', 'missing-required-metadata-property');
        metadata.set('required-metadata-properties', 'type,content-type');
        return { code: grpc.status.INVALID_ARGUMENT, details: "Required Metadata Property 'type' is missing", metadata };
      case 'event-too-big':
        metadata.set('exception', 'maximum-append-event-size-exceeded');
        return { code: grpc.status.INVALID_ARGUMENT, details: 'Event exceeds Maximum Append Event Size', metadata };
      case 'append-too-big':
        metadata.set('exception', 'maximum-append-size-exceeded');
        metadata.set('maximum-append-size', String(this.limits.maxAppendSize));
        return { code: grpc.status.INVALID_ARGUMENT, details: `Maximum Append Size of ${this.limits.maxAppendSize} Exceeded.`, metadata };
    }
  }

  private appendNow(options: AppendReq.Options, proposed: Proposed[]): AppendResp {
    const streamId = Buffer.from(options.getStreamIdentifier()!.getStreamName()).toString('utf8');
    const expected: Expected = options.hasRevision()
      ? { revision: Number(options.getRevision()) }
      : options.hasNoStream()
        ? 'no-stream'
        : options.hasStreamExists()
          ? 'stream-exists'
          : 'any';
    const outcome = this.log.append(streamId, expected, proposed);
    if (outcome.kind === 'wrong-expected-version') {
      const w = new AppendResp.WrongExpectedVersion();
      if (outcome.current !== null) w.setCurrentRevision(String(outcome.current));
      else w.setCurrentNoStream(new Empty());
      if (expected === 'any') w.setExpectedAny(new Empty());
      else if (expected === 'no-stream') w.setExpectedNoStream(new Empty());
      else if (expected === 'stream-exists') w.setExpectedStreamExists(new Empty());
      else w.setExpectedRevision(String(expected.revision));
      return new AppendResp().setWrongExpectedVersion(w);
    }
    const s = new AppendResp.Success();
    s.setCurrentRevision(String(outcome.revision));
    if (outcome.position !== null) {
      s.setPosition(new AppendResp.Position().setCommitPosition(outcome.position.toString()).setPreparePosition(outcome.position.toString()));
    }
    return new AppendResp().setSuccess(s);
  }
}
