import { describeEventStoreContract } from '../event-store.contract';
import { createEventStore } from '../index';
import { EsdbEventStore } from './esdb-event-store';

const CONNECTION_STRING = process.env.EVENTSTORE_CONNECTION_STRING;

if (CONNECTION_STRING) {
  // Runs against a real EventStoreDB only when one is configured (e.g. docker-compose).
  describeEventStoreContract('esdb', async () => {
    const store = new EsdbEventStore(CONNECTION_STRING);
    await store.migrate();
    return { store, cleanup: () => store.close() };
  });
}

describe('EsdbEventStore', () => {
  it('builds its client from a connection string without connecting', async () => {
    const store = createEventStore({ kind: 'esdb', connectionString: 'esdb://127.0.0.1:1?tls=false' });
    expect(store).toBeInstanceOf(EsdbEventStore);
    expect(store.atomicMultiStream).toBe(false);
    // Checkpoints are "<commit>:<prepare>" positions, compared numerically (not as strings).
    expect(store.isAtOrAfter({ value: '10:9' }, { value: '9:9' })).toBe(true);
    expect(store.isAtOrAfter({ value: '9:9' }, { value: '10:9' })).toBe(false);
    expect(store.isAtOrAfter({ value: '10:10' }, { value: '10:10' })).toBe(true);
    expect(store.isAtOrAfter(null, { value: '1:1' })).toBe(false);
    await store.close();
  });
});
