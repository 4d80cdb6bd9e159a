import * as grpc from '@grpc/grpc-js';
import { describeEventStoreContract, describeReadAllContract, newEvent, uniqueId } from '../event-store.contract';
import {
  DuplicateEventIdError,
  EventStoreAccessDeniedError,
  EventStoreUnavailableError,
  StreamDeletedError,
  type EventStore,
} from '../event-store.port';
import { createEventStore } from '../index';
import { EsdbEventStore, type EsdbEventStoreOptions } from './esdb-event-store';
import { InMemoryEsdbServer } from './in-memory-esdb-server.test-support';

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
const onInMemoryServer = (options: EsdbEventStoreOptions = {}) => async () => {
  const server = await InMemoryEsdbServer.start();
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
  });
}

// The adapter with the real client (grpc-js, HTTP/2) against an in-memory stand-in for the server.
describeEventStoreContract('esdb adapter, in-memory server', onInMemoryServer());
describeReadAllContract('esdb adapter, in-memory server, $all read 2 events per page', onInMemoryServer({ readAllPageSize: 2 }));

describe('EsdbEventStore (real client, in-memory server)', () => {
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

  it.each([
    ['unavailable', () => ({ code: grpc.status.UNAVAILABLE })],
    ['deadline exceeded', () => ({ code: grpc.status.DEADLINE_EXCEEDED })],
    // The client then reconnects to the leader it names: here, the same server.
    ['not leader', (port: number) => ({ code: grpc.status.NOT_FOUND, exception: 'not-leader', metadata: { 'leader-endpoint-host': '127.0.0.1', 'leader-endpoint-port': String(port) } })],
  ])('maps %s to the port\'s retryable unavailable error, on reads and writes', async (_name, faultOn) => {
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

  it('reports the head of the log, so a checkpoint beyond it (a reset store) can be told at start', async () => {
    expect(await store.headCheckpoint()).toBeNull();
    const written = await store.append([{ streamId: 'tail-6', expectedVersion: 0, events: [newEvent(), newEvent()] }]);
    expect(await store.headCheckpoint()).toEqual(written.checkpoint);
    server.reset();
    server.seed('tail-7', 1);
    expect(store.isAtOrAfter(await store.headCheckpoint(), written.checkpoint)).toBe(false);
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
