import { CLAIM_LEASE_MS, claimMayBeInFlight } from './claim-lease';

describe('claim lease', () => {
  it('a claim may be in flight only while its lease runs, and only where the store records when it was claimed', () => {
    const claimedAt = new Date('2026-11-24T03:00:00.000Z');
    const after = (ms: number) => new Date(claimedAt.getTime() + ms);
    expect(claimMayBeInFlight({ holder: 5, version: 1, claimedAt }, after(0))).toBe(true);
    expect(claimMayBeInFlight({ holder: 5, version: 1, claimedAt }, after(CLAIM_LEASE_MS - 1))).toBe(true);
    expect(claimMayBeInFlight({ holder: 5, version: 1, claimedAt }, after(CLAIM_LEASE_MS))).toBe(false);
    expect(claimMayBeInFlight({ holder: 5, version: 1, claimedAt }, after(999), 1000)).toBe(true);
    expect(claimMayBeInFlight({ holder: 5, version: 1, claimedAt }, after(1000), 1000)).toBe(false);
    // Rows changed in the same transaction as the tail's events (PostgresReservations): never in flight.
    expect(claimMayBeInFlight({ holder: 5, version: 1 }, after(0))).toBe(false);
  });
});
