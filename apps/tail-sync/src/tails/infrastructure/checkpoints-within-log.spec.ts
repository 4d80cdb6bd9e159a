/**
 * The start check against the real PostgreSQL event store (`DATABASE_URL`) and the EventStoreDB
 * adapter (real client, in-memory server).
 */
import * as grpc from '@grpc/grpc-js';
import { EsdbEventStore, EventStoreAccessDeniedError, newEventId } from '@tailsync/event-store';
import { InMemoryEsdbServer } from '@tailsync/event-store/testing';
import { createTestStores, type TestStores } from './read-model/read-model.test-support';
import { CheckpointBeyondLog, CheckpointsOfAnotherLog, checkCheckpointsWithinLog } from './checkpoints-within-log';
import { PostgresEventLogBinding, type EventLogBinding } from './event-log-binding';
import { readModelTables } from './read-model/read-model.tables';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('checkpoints-within-log.spec.ts needs DATABASE_URL (a real PostgreSQL server)');

const event = () => ({ eventId: newEventId(), type: 'TailCreated', data: {} });

/** A read model bound to no log yet (each test its own). */
const freshBinding = (): EventLogBinding => {
  let bound: string | null = null;
  return { bind: async (log) => (bound ??= log) };
};

describe('checkCheckpointsWithinLog', () => {
  let s: TestStores;
  beforeAll(async () => {
    s = await createTestStores('cwl', DATABASE_URL);
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  it('PostgreSQL: passes checkpoints within the log, and refuses one beyond it', async () => {
    const pg = freshBinding();
    await checkCheckpointsWithinLog(s.store, pg, 'postgres', [{ reader: 'projection', checkpoint: null }]);
    // The check names the log by its first start's event: the log holds that one now.
    const [tx] = (await s.store.headCheckpoint())!.value.split(':');
    await expect(
      checkCheckpointsWithinLog(s.store, pg, 'postgres', [{ reader: 'projection', checkpoint: { value: `${BigInt(tx) + 1000n}:5` } }]),
    ).rejects.toBeInstanceOf(CheckpointBeyondLog);
    const { checkpoint } = await s.store.append([{ streamId: `tail-${s.run}`, expectedVersion: 0, events: [event()] }]);
    await checkCheckpointsWithinLog(s.store, pg, 'postgres', [{ reader: 'projection', checkpoint }, { reader: 'relay', checkpoint: null }]);
    const beyond = { value: checkpoint.value.replace(/^(\d+):/, (_, tx: string) => `${BigInt(tx) + 1000n}:`) };
    await expect(checkCheckpointsWithinLog(s.store, pg, 'postgres', [{ reader: 'projection', checkpoint }, { reader: 'relay', checkpoint: beyond }])).rejects.toThrow(
      /The relay's checkpoint .* lies beyond the end of the event store's log/,
    );
  });

  it('EventStoreDB: refuses a checkpoint of a store that was reset since', async () => {
    const server = await InMemoryEsdbServer.start();
    const store = new EsdbEventStore(server.connectionString);
    const esdb = freshBinding();
    try {
      const { checkpoint } = await store.append([{ streamId: 'tail-1', expectedVersion: 0, events: [event(), event()] }]);
      await checkCheckpointsWithinLog(store, esdb, 'esdb', [{ reader: 'projection', checkpoint }]);
      server.reset();
      server.seed('tail-1', 1);
      await expect(checkCheckpointsWithinLog(store, esdb, 'esdb', [{ reader: 'projection', checkpoint }])).rejects.toBeInstanceOf(CheckpointBeyondLog);
    } finally {
      await store.close();
      await server.stop();
    }
  });

  it('EventStoreDB: stops the start when the log may not be read, before any reader stored a checkpoint', async () => {
    const server = await InMemoryEsdbServer.start();
    const store = new EsdbEventStore(server.connectionString);
    const esdb = freshBinding();
    try {
      server.inject({ method: 'read', code: grpc.status.PERMISSION_DENIED, exception: 'access-denied' });
      const denied = checkCheckpointsWithinLog(store, esdb, 'esdb', [{ reader: 'projection', checkpoint: null }]);
      await expect(denied).rejects.toBeInstanceOf(EventStoreAccessDeniedError);
      await expect(denied).rejects.toThrow(/denied reading \$all/);
    } finally {
      await store.close();
      await server.stop();
    }
  });

  it('EventStoreDB: refuses checkpoints of a wiped store even below its new head, where reading on would skip or fail', async () => {
    const server = await InMemoryEsdbServer.start();
    const store = new EsdbEventStore(server.connectionString);
    const esdb = freshBinding();
    try {
      const { checkpoint } = await store.append([{ streamId: 'tail-1', expectedVersion: 0, events: [event()] }]);
      await checkCheckpointsWithinLog(store, esdb, 'esdb', [{ reader: 'relay', checkpoint }]);
      server.reset();
      server.seed('tail-2', 50, 'TailCreated', { pad: 'x'.repeat(100) });
      expect(store.isAtOrAfter(await store.headCheckpoint(), checkpoint)).toBe(true);
      const refused = checkCheckpointsWithinLog(store, esdb, 'esdb', [{ reader: 'relay', checkpoint }]);
      await expect(refused).rejects.toBeInstanceOf(CheckpointsOfAnotherLog);
      await expect(refused).rejects.toThrow(/rm_event_log .* rebuild-projections/);
    } finally {
      await store.close();
      await server.stop();
    }
  });

  it('refuses a switch of EVENT_STORE, with the binding kept in the read model database', async () => {
    const binding = new PostgresEventLogBinding(s.pool, readModelTables(s.schema));
    await checkCheckpointsWithinLog(s.store, binding, 'postgres', [{ reader: 'projection', checkpoint: null }]);
    await checkCheckpointsWithinLog(s.store, binding, 'postgres', [{ reader: 'projection', checkpoint: null }]);
    const server = await InMemoryEsdbServer.start();
    const store = new EsdbEventStore(server.connectionString);
    try {
      await expect(checkCheckpointsWithinLog(store, binding, 'esdb', [{ reader: 'projection', checkpoint: null }])).rejects.toThrow(
        /positions in event store log postgres:[0-9a-f-]{36}, but tail-sync now uses log esdb:[0-9a-f-]{36}/,
      );
    } finally {
      await store.close();
      await server.stop();
    }
  });
});
