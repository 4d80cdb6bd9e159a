/**
 * Claims are timed by the store and judged on its clock: against the EventStoreDB adapter (real
 * client) and the in-memory server with a clock that is off.
 */
import { EsdbEventStore } from '@tailsync/event-store';
import { InMemoryEsdbServer } from '@tailsync/event-store/testing';
import { StoreClockSkewed } from './store-clock';
import { StreamReservations } from './stream-reservations';

async function onServerWithClock(clockOffsetMs: number, run: (store: EsdbEventStore) => Promise<void>): Promise<void> {
  const server = await InMemoryEsdbServer.start({ clockOffsetMs });
  const store = new EsdbEventStore(server.connectionString);
  try {
    await run(store);
  } finally {
    await store.close();
    await server.stop();
  }
}

describe('StreamReservations on a store whose clock is off', () => {
  it.each([
    [-20_000, /is (19\.9|20\.\d) s behind this machine's/],
    [3_000, /is 3\.\d s ahead of this machine's/],
  ])('refuses to start when the store clock is %i ms off', async (offset, message) => {
    await onServerWithClock(offset, async (store) => {
      const aligning = new StreamReservations(store).alignClock();
      await expect(aligning).rejects.toBeInstanceOf(StoreClockSkewed);
      await expect(aligning).rejects.toThrow(message);
    });
  });

  it('says why when the store clock is so far ahead that every write times out', async () => {
    await onServerWithClock(30_000, async (store) => {
      await expect(new StreamReservations(store).alignClock()).rejects.toThrow(/ahead .* every append timed out at once/);
    });
  });

  it("judges a claim on the store's clock: a claim it just recorded on a clock 1.5 s behind is in flight for the whole lease", async () => {
    await onServerWithClock(-1_500, async (store) => {
      const leaseMs = 1_000;
      const reservations = new StreamReservations(store, Date.now, leaseMs);
      await reservations.alignClock();
      await store.append([{ streamId: 'tailnumber-c-1', expectedVersion: 0, events: [{ eventId: crypto.randomUUID(), type: 'E', data: {} }] }]);
      const [claim] = await store.readStream('tailnumber-c-1');
      const fresh = { holder: 7, version: 1, claimedAt: claim.recordedAt };
      // On tail-sync's own clock this claim looks 1.5 s old, past its 1 s lease: another writer would take it.
      expect(Date.now() - claim.recordedAt.getTime()).toBeGreaterThan(leaseMs);
      expect(reservations.mayBeInFlight(fresh, new Date())).toBe(true);
      expect(reservations.mayBeInFlight(fresh, new Date(Date.now() + leaseMs + 200))).toBe(false);
    });
  });
});
