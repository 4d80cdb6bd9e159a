import { foldReservation, freeReservation, mappedIdClaimed, tailNumberClaimed, tailNumberReleased } from './reservation.events';

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

  it('a stale release leaves the holder', () => {
    expect(foldReservation([tailNumberClaimed(5), tailNumberClaimed(6), tailNumberReleased(5)])).toEqual({ holder: 6, version: 3 });
  });
});
