import {
  claimWithdrawn,
  foldReservation,
  freeReservation,
  mappedIdClaimed,
  tailNumberClaimed,
  tailNumberReleased,
} from './reservation.events';

describe('reservations', () => {
  it('an empty stream is free', () => {
    expect(foldReservation([])).toEqual(freeReservation);
  });

  it('a claim holds the tail', () => {
    expect(foldReservation([tailNumberClaimed(5)])).toEqual({ holder: 5, version: 1 });
    expect(foldReservation([mappedIdClaimed(9)])).toEqual({ holder: 9, version: 1 });
  });

  it('a release by the holder frees it; a later claim holds again', () => {
    expect(foldReservation([tailNumberClaimed(5), tailNumberReleased(5)])).toEqual({ holder: null, version: 2 });
    expect(foldReservation([tailNumberClaimed(5), tailNumberReleased(5), tailNumberClaimed(6)])).toEqual({ holder: 6, version: 3 });
  });

  it('a claim withdrawn by its writer frees the key; one withdrawn after another claim leaves that one', () => {
    expect(foldReservation([mappedIdClaimed(5), claimWithdrawn(5)])).toEqual({ holder: null, version: 2 });
    expect(foldReservation([tailNumberClaimed(6), claimWithdrawn(5)])).toEqual({ holder: 6, version: 2 });
  });

  it('a stale release leaves the holder', () => {
    expect(foldReservation([tailNumberClaimed(5), tailNumberClaimed(6), tailNumberReleased(5)])).toEqual({ holder: 6, version: 3 });
  });

  it('a stored claim carries the time it was recorded; a release by the holder clears it, a stale one keeps it', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 3, 0, s));
    const stored = <E extends object>(e: E, s: number) => ({ ...e, recordedAt: at(s) });
    expect(foldReservation([stored(tailNumberClaimed(5), 1)])).toEqual({ holder: 5, version: 1, claimedAt: at(1) });
    expect(foldReservation([stored(tailNumberClaimed(5), 1), stored(tailNumberReleased(5), 2)])).toEqual({ holder: null, version: 2 });
    expect(foldReservation([stored(tailNumberClaimed(5), 1), stored(tailNumberClaimed(6), 2), stored(tailNumberReleased(5), 3)])).toEqual({
      holder: 6,
      version: 3,
      claimedAt: at(2),
    });
  });
});
