import { ErrorType, eventTypeFilter, jsonEvent, STREAM_EXISTS } from '@eventstore/db-client';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import * as grpc from '@grpc/grpc-js';
import { describeEventStoreContract, describeReadAllContract, newEvent, uniqueId } from '../event-store.contract';
import {
  DuplicateEventIdError,
  EventStoreAccessDeniedError,
  EventStoreRejectedError,
  EventStoreUnavailableError,
  StreamDeletedError,
  type EventStore,
} from '../event-store.port';
import { createEventStore } from '../index';
import { EsdbEventStore, type EsdbEventStoreOptions } from './esdb-event-store';
import { InMemoryEsdbServer, type InMemoryEsdbServerOptions } from './in-memory-esdb-server.test-support';

const CONNECTION_STRING = process.env.EVENTSTORE_CONNECTION_STRING;

/** Builds a store on `connectionString`; `afterwards` runs after it is closed. */
const storeOn =
  (connectionString: () => string, options: EsdbEventStoreOptions = {}, afterwards: () => Promise<void> = async () => undefined) =>
  async () => {
    const store = new EsdbEventStore(connectionString(), options);
    return {
      store,
      cleanup: async () => {
        await store.close();
        await afterwards();
      },
    };
  };

/** The adapter and the real client against a fresh in-memory server per block. */
const onInMemoryServer = (options: EsdbEventStoreOptions = {}, serverOptions: InMemoryEsdbServerOptions = {}) => async () => {
  const server = await InMemoryEsdbServer.start(serverOptions);
  return storeOn(() => server.connectionString, options, () => server.stop())();
};

/**
 * Reads that stop before the server's end must be cancelled: each would otherwise keep one of the
 * server's 100 calls per connection open for ever, and then every call, appends included, waits.
 */
function describePartialReads(name: string, connect: () => Promise<{ connectionString: string; stop(): Promise<void> }>): void {
  it(`${name}: 150 reads that stop early, each leaving 1,000+ events unread, then an append succeeds`, async () => {
    const server = await connect();
    // One page asks for 2,000 events: the read stops after the first, leaving the rest unread.
    const store = new EsdbEventStore(server.connectionString, { readAllPageSize: 2_000, callTimeoutMs: 5_000 });
    try {
      const run = uniqueId('partial');
      const marker = await store.append([{ streamId: `${run}-marker`, expectedVersion: 0, events: [newEvent('Marker')] }]);
      const pad = 'x'.repeat(200); // 1,200 events of > 200 bytes: well past HTTP/2's 64 KiB window
      await store.append([{ streamId: `${run}-tail-1`, expectedVersion: 0, events: Array.from({ length: 1_200 }, () => newEvent('E', { pad })) }]);
      for (let i = 0; i < 150; i++) {
        const page = await store.readAll(marker.checkpoint, 1, { streamPrefixes: [`${run}-tail-`] });
        expect(page.events).toHaveLength(1);
      }
      const appended = await store.append([{ streamId: `${run}-after`, expectedVersion: 0, events: [newEvent('After')] }]);
      expect(appended.streams).toEqual({ [`${run}-after`]: 1 });
    } finally {
      await store.close();
      await server.stop();
    }
  }, 60_000);
}

if (CONNECTION_STRING) {
  // Runs against a real EventStoreDB only when one is configured (e.g. docker-compose, CI).
  describeEventStoreContract('esdb', storeOn(() => CONNECTION_STRING));
  describeReadAllContract('esdb, $all read 2 events per page', storeOn(() => CONNECTION_STRING, { readAllPageSize: 2 }));
  describe('EsdbEventStore on EventStoreDB', () => {
    describePartialReads('EventStoreDB', async () => ({ connectionString: CONNECTION_STRING, stop: async () => undefined }));

    it('meets a server that lists BatchAppend: the client appends through it, as the suites above did', async () => {
      const store = new EsdbEventStore(CONNECTION_STRING);
      try {
        // The client's own check before every append (Client.supports, appendToStream/index.js).
        const supports = (store.client as unknown as { supports(method: unknown): Promise<boolean> }).supports;
        expect(await supports(StreamsService.batchAppend)).toBe(true);
      } finally {
        await store.close();
      }
    });
  });
}

// The adapter with the real client (grpc-js, HTTP/2) against an in-memory stand-in for the server:
// appending through BatchAppend as against every server since 21.10, and once through unary Append.
describeEventStoreContract('esdb adapter, in-memory server', onInMemoryServer());
describeEventStoreContract('esdb adapter, in-memory server without BatchAppend', onInMemoryServer({}, { appends: 'unary' }));
describeReadAllContract('esdb adapter, in-memory server, $all read 2 events per page', onInMemoryServer({ readAllPageSize: 2 }));

describe('EsdbEventStore reading (real client, in-memory server)', () => {
  let server: InMemoryEsdbServer;
  let store: EsdbEventStore;
  const TIMEOUT_MS = 300;

  beforeEach(async () => {
    server = await InMemoryEsdbServer.start();
    store = new EsdbEventStore(server.connectionString, { callTimeoutMs: TIMEOUT_MS });
  });
  afterEach(async () => {
    await store.close();
    await server.stop();
  });

  /** Waits until the server has no read call open (cancellation reaches it asynchronously). */
  const readsClosed = async () => {
    const deadline = Date.now() + 2_000;
    while (server.openReads > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return server.openReads;
  };

  describePartialReads('in-memory server', async () => {
    const own = await InMemoryEsdbServer.start();
    return { connectionString: own.connectionString, stop: () => own.stop() };
  });

  it('cancels a read it stops early, and leaves none open', async () => {
    server.seed('tail-1', 1_000, 'E', { pad: 'x'.repeat(200) });
    const wide = new EsdbEventStore(server.connectionString, { readAllPageSize: 1_000 });
    try {
      expect((await wide.readAll(null, 3, { streamPrefixes: ['tail-'] })).events).toHaveLength(3);
      expect(await readsClosed()).toBe(0);
      expect(server.cancelledReads).toBe(1);
    } finally {
      await wide.close();
    }
  });

  it('gives up a read the server does not answer, as unavailable, and cancels it', async () => {
    server.inject({ method: 'read', hang: true });
    const started = Date.now();
    await expect(store.readStream('tail-1')).rejects.toBeInstanceOf(EventStoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1_000);
    expect(await readsClosed()).toBe(0);

    server.inject({ method: 'read', hang: true });
    await expect(store.readAll(null, 10)).rejects.toBeInstanceOf(EventStoreUnavailableError);
    server.inject({ method: 'read', hang: true });
    await expect(store.ping()).rejects.toBeInstanceOf(EventStoreUnavailableError);
    expect(await readsClosed()).toBe(0);
  });

  it('maps access denied to an error naming the missing credential', async () => {
    server.inject({ method: 'read', code: grpc.status.PERMISSION_DENIED, exception: 'access-denied' });
    const denied = await store.headCheckpoint().catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(EventStoreAccessDeniedError);
    expect((denied as Error).message).toMatch(/denied reading \$all: the connection string has no credentials/);

    const withUser = new EsdbEventStore(`esdb://reader:secret@127.0.0.1:${server.port}?tls=false`, { callTimeoutMs: TIMEOUT_MS });
    try {
      server.inject({ method: 'read', code: grpc.status.PERMISSION_DENIED, exception: 'access-denied' });
      await expect(withUser.headCheckpoint()).rejects.toThrow(/denied reading \$all to user 'reader'/);
    } finally {
      await withUser.close();
    }
  });

  it('maps a deleted stream to StreamDeletedError', async () => {
    server.inject({ method: 'read', code: grpc.status.FAILED_PRECONDITION, exception: 'stream-deleted', metadata: { 'stream-name': 'tail-9' } });
    await expect(store.readStream('tail-9')).rejects.toEqual(new StreamDeletedError('tail-9'));
  });

  it('reads 2,000 streams with at most its call slots open on the server', async () => {
    const bounded = new EsdbEventStore(server.connectionString, { maxConcurrentCalls: 20 });
    try {
      for (let i = 0; i < 2_000; i++) server.seed(`tailnumber-d-${i}`, 1);
      const read = await bounded.readStreams(Array.from({ length: 2_000 }, (_, i) => `tailnumber-d-${i}`));
      expect([...read.values()].every((events) => events.length === 1)).toBe(true);
      expect(server.maxOpenReads).toBeLessThanOrEqual(20);
    } finally {
      await bounded.close();
    }
  });

  it("skips the server's own events: a fresh log already holds some, and setting stream metadata writes one", async () => {
    const fresh = server.all.map((e) => e.streamId);
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.every((id) => id.startsWith('$'))).toBe(true);
    await store.client.setStreamMetadata('tail-m', { maxCount: 5 });
    expect(server.all.at(-1)).toMatchObject({ streamId: '$$tail-m', type: '$metadata' });
    await store.append([{ streamId: 'tail-m', expectedVersion: 0, events: [newEvent('Mine')] }]);
    const page = await store.readAll(null, 100);
    expect(page.events.map((e) => `${e.streamId}:${e.type}`)).toEqual(['tail-m:Mine']);
    expect(page.checkpoint).toEqual({ value: page.events[0].position });
  });

  it('reports the head of the log, so a checkpoint beyond it (a reset store) can be told at start', async () => {
    const freshHead = await store.headCheckpoint();
    expect(freshHead).not.toBeNull();
    const written = await store.append([{ streamId: 'tail-6', expectedVersion: 0, events: [newEvent(), newEvent()] }]);
    expect(await store.headCheckpoint()).toEqual(written.checkpoint);
    expect(store.isAtOrAfter(written.checkpoint, freshHead!)).toBe(true);
    server.reset();
    server.seed('tail-7', 1);
    expect(store.isAtOrAfter(await store.headCheckpoint(), written.checkpoint)).toBe(false);
  });

  it('rejects, for good, a read of $all from a position that is no event\'s (a checkpoint of another log)', async () => {
    const written = await store.append([{ streamId: 'tail-8', expectedVersion: 0, events: [newEvent(), newEvent('E', { pad: 'x'.repeat(500) })] }]);
    const [commit] = written.checkpoint.value.split(':').map(BigInt);
    const between = `${commit - 7n}:${commit - 7n}`;
    const err = await store.readAll({ value: between }, 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EventStoreRejectedError);
    expect((err as Error).message).toMatch(/invalid position/);
  });

  it("records when an event was written, on the server's clock, not when it is read", async () => {
    const behind = await InMemoryEsdbServer.start({ clockOffsetMs: -60_000 });
    const on = new EsdbEventStore(behind.connectionString);
    try {
      const before = Date.now();
      await on.append([{ streamId: 'tail-t', expectedVersion: 0, events: [newEvent()] }]);
      const after = Date.now();
      await new Promise((r) => setTimeout(r, 300));
      const [stored] = await on.readStream('tail-t');
      expect(stored.recordedAt.getTime()).toBeGreaterThanOrEqual(before - 60_000);
      expect(stored.recordedAt.getTime()).toBeLessThanOrEqual(after - 60_000);
    } finally {
      await on.close();
      await behind.stop();
    }
  });

  it("times every write out on a server whose clock is ahead by more than the call time-out (the client's deadline is a time of day)", async () => {
    const ahead = await InMemoryEsdbServer.start({ clockOffsetMs: 10_000 });
    const on = new EsdbEventStore(ahead.connectionString, { callTimeoutMs: 1_000, writeAttempts: 2 });
    try {
      await expect(on.append([{ streamId: 'tail-a', expectedVersion: 0, events: [newEvent()] }])).rejects.toThrow(/deadline-exceeded/);
      expect(await on.readStream('tail-a')).toEqual([]);
    } finally {
      await on.close();
      await ahead.stop();
    }
  });

  it('answers a filter, resolveLinkTos or a subscription it does not implement with an error, never by ignoring it', async () => {
    const failure = (stream: AsyncIterable<unknown> & { on(event: 'error', listener: (e: Error) => void): unknown }) =>
      new Promise<Error>((resolve) => {
        stream.on('error', resolve);
        void (async () => {
          for await (const _ of stream) break;
        })().catch(resolve);
      });
    server.seed('tail-l', 1);
    expect((await failure(store.client.readStream('tail-l', { resolveLinkTos: true }))).message).toMatch(/resolveLinkTos is not implemented/);
    const subscription = store.client.subscribeToAll({ filter: eventTypeFilter({ prefixes: ['Tail'] }) });
    expect((await failure(subscription)).message).toMatch(/filters are not implemented/);
    await subscription.unsubscribe();
  });
});

/** Appends, and their failures, on each path the client may take. */
describe.each(['batch', 'unary'] as const)('EsdbEventStore appending (real client, in-memory server, %s appends)', (appends) => {
  let server: InMemoryEsdbServer;
  let store: EsdbEventStore;
  const TIMEOUT_MS = 300;

  beforeEach(async () => {
    server = await InMemoryEsdbServer.start({ appends });
    store = new EsdbEventStore(server.connectionString, { callTimeoutMs: TIMEOUT_MS });
  });
  afterEach(async () => {
    await store.close();
    await server.stop();
  });

  it(appends === 'batch' ? 'sends every append on one BatchAppend call' : 'sends one Append call per stream write', async () => {
    await store.append(Array.from({ length: 5 }, (_, i) => ({ streamId: `tail-p${i}`, expectedVersion: 0, events: [newEvent()] })));
    await store.append([{ streamId: 'tail-p0', expectedVersion: 1, events: [newEvent()] }]);
    expect([server.batchAppendCalls, server.appendCalls]).toEqual(appends === 'batch' ? [1, 0] : [0, 6]);
    const supports = (store.client as unknown as { supports(method: unknown): Promise<boolean> }).supports;
    expect(await supports(StreamsService.batchAppend)).toBe(appends === 'batch');
  });

  it.each([
    ['unavailable', () => ({ code: grpc.status.UNAVAILABLE })],
    ['deadline exceeded', () => ({ code: grpc.status.DEADLINE_EXCEEDED })],
    // The client then reconnects to the leader it names: here, the same server.
    ['not leader', (port: number) => ({ code: grpc.status.NOT_FOUND, exception: 'not-leader', metadata: { 'leader-endpoint-host': '127.0.0.1', 'leader-endpoint-port': String(port) } })],
  ])("maps %s to the port's retryable unavailable error, on reads and writes", async (_name, faultOn) => {
    const fault = faultOn(server.port);
    server.inject({ method: 'read', ...fault });
    await expect(store.readStream('tail-1')).rejects.toBeInstanceOf(EventStoreUnavailableError);
    // A write is resent (same ids) before it gives up: three failures in a row reach the caller.
    for (let i = 0; i < 3; i++) server.inject({ method: 'append', ...fault });
    await expect(store.append([{ streamId: 'tail-1', expectedVersion: 0, events: [newEvent()] }])).rejects.toBeInstanceOf(
      EventStoreUnavailableError,
    );
    expect(await store.readStream('tail-1')).toEqual([]);
  });

  it.each([
    ["the server's write timeout", 'timeout'],
    ['a node not ready', 'not-ready'],
  ] as const)('resends a write that met %s, and stores it once', async (_name, status) => {
    server.inject({ method: 'append', status });
    const write = { streamId: 'tail-r', expectedVersion: 0, events: [newEvent()] };
    expect((await store.append([write])).streams).toEqual({ 'tail-r': 1 });
    expect((await store.readStream('tail-r')).map((e) => e.eventId)).toEqual([write.events[0].eventId]);
  });

  it.each([
    ['a request the server calls bad', 'bad-request'],
    ['an event over the server\'s event size limit', 'event-too-big'],
  ] as const)('fails at once, for good, on %s', async (_name, status) => {
    server.inject({ method: 'append', status });
    const err = await store.append([{ streamId: 'tail-b', expectedVersion: 0, events: [newEvent()] }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EventStoreRejectedError);
    expect(await store.readStream('tail-b')).toEqual([]);
  });

  it('is refused past MaxAppendSize in one append, which the adapter never sends', async () => {
    const big = jsonEvent({ type: 'Big', data: { pad: 'x'.repeat(1_048_600) } });
    await expect(store.client.appendToStream('tail-big', [big])).rejects.toMatchObject({ type: ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED });
    const events = Array.from({ length: 3 }, () => newEvent('Big', { pad: 'x'.repeat(400_000) }));
    await expect(store.append([{ streamId: 'tail-big', expectedVersion: 0, events }])).resolves.toMatchObject({ streams: { 'tail-big': 3 } });
  });

  it('honours StreamExists', async () => {
    await expect(store.client.appendToStream('tail-x', [jsonEvent({ type: 'E', data: {} })], { expectedRevision: STREAM_EXISTS })).rejects.toMatchObject({
      type: ErrorType.WRONG_EXPECTED_VERSION,
    });
    server.seed('tail-x', 1);
    await expect(store.client.appendToStream('tail-x', [jsonEvent({ type: 'E', data: {} })], { expectedRevision: STREAM_EXISTS })).resolves.toMatchObject({
      nextExpectedRevision: 1n,
    });
  });

  it('resends a write that timed out after it was stored: stored once, and answered', async () => {
    server.inject({ method: 'append', hangAfterWork: true });
    const write = { streamId: 'tail-2', expectedVersion: 0, events: [newEvent('TailCreated'), newEvent('MappingAdded')] };
    const result = await store.append([write]);
    expect(result.streams).toEqual({ 'tail-2': 2 });
    const stored = await store.readStream('tail-2');
    expect(stored.map((e) => e.eventId)).toEqual(write.events.map((e) => e.eventId));
    expect(result.checkpoint.value).toBe(stored[1].position);
  });

  it('checks the type of a resent write against what is stored', async () => {
    const first = newEvent('TailCreated');
    await store.append([{ streamId: 'tail-3', expectedVersion: 0, events: [first] }]);
    server.inject({ method: 'append', code: grpc.status.UNAVAILABLE });
    const sameIdOtherType = { streamId: 'tail-3', expectedVersion: 0, events: [{ ...first, type: 'TailDeactivated' }] };
    await expect(store.append([sameIdOtherType])).rejects.toBeInstanceOf(DuplicateEventIdError);
  });

  it("takes an append's checkpoint from its result: no read per append", async () => {
    const readsBefore = server.readCalls;
    const result = await store.append([
      { streamId: 'tail-4', expectedVersion: 0, events: [newEvent(), newEvent()] },
      { streamId: 'tail-5', expectedVersion: 0, events: [newEvent()] },
    ]);
    expect(server.readCalls).toBe(readsBefore);
    const positions = [...(await store.readStream('tail-4')), ...(await store.readStream('tail-5'))].map((e) => ({ value: e.position }));
    for (const p of positions) expect(store.isAtOrAfter(result.checkpoint, p)).toBe(true);
    expect(positions.some((p) => p.value === result.checkpoint.value)).toBe(true);
  });
});

describe('EsdbEventStore on BatchAppend (real client, in-memory server)', () => {
  it('fails every write in flight on the shared call when one meets not-leader, then resends them all on a new call', async () => {
    const server = await InMemoryEsdbServer.start();
    const store = new EsdbEventStore(server.connectionString, { callTimeoutMs: 2_000 });
    try {
      await store.append([{ streamId: 'tail-warm', expectedVersion: 0, events: [newEvent()] }]);
      // The first write hangs on the call; the second ends the call with not-leader, failing the first too.
      server.inject({ method: 'append', hang: true });
      server.inject({ method: 'append', code: grpc.status.NOT_FOUND, exception: 'not-leader', metadata: { 'leader-endpoint-host': '127.0.0.1', 'leader-endpoint-port': String(server.port) } });
      const started = Date.now();
      const result = await store.append([
        { streamId: 'tail-n1', expectedVersion: 0, events: [newEvent()] },
        { streamId: 'tail-n2', expectedVersion: 0, events: [newEvent()] },
      ]);
      expect(result.streams).toEqual({ 'tail-n1': 1, 'tail-n2': 1 });
      // Both resent well before the hanging one's time-out: the not-leader answer failed it.
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(server.batchAppendCalls).toBe(2);
    } finally {
      await store.close();
      await server.stop();
    }
  });
});

describe('EsdbEventStore', () => {
  it('builds its client from a connection string without connecting', async () => {
    const store: EventStore = createEventStore({ kind: 'esdb', connectionString: 'esdb://127.0.0.1:1?tls=false' });
    expect(store).toBeInstanceOf(EsdbEventStore);
    expect(store.atomicMultiStream).toBe(false);
    // Checkpoints are "<commit>:<prepare>" positions, compared numerically (not as strings).
    expect(store.isAtOrAfter({ value: '10:9' }, { value: '9:9' })).toBe(true);
    expect(store.isAtOrAfter({ value: '9:9' }, { value: '10:9' })).toBe(false);
    expect(store.isAtOrAfter({ value: '10:10' }, { value: '10:10' })).toBe(true);
    expect(store.isAtOrAfter(null, { value: '1:1' })).toBe(false);
    await store.close();
  });

  it('refuses tlsVerifyCert=false without tlsCAFile at once (the client ignores it, and every call would fail)', () => {
    expect(() => new EsdbEventStore('esdb://admin:changeit@127.0.0.1:1?tls=true&tlsVerifyCert=false')).toThrow(/tlsCAFile=<path>/);
    // With the CA given, the client loads it at once: a missing file fails at start too.
    expect(() => new EsdbEventStore('esdb://admin:changeit@127.0.0.1:1?tls=true&tlsVerifyCert=false&tlsCAFile=/nonexistent/ca.crt')).toThrow(
      /certificate file/,
    );
  });
});
