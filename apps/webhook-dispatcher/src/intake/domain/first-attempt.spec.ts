import { type ConsumerStanding, firstAttemptOf } from './first-attempt';

describe('firstAttemptOf: how a consumed event is first attempted', () => {
  const steady: ConsumerStanding = { sinceConfirmed: 800, trustMs: 5_000, batchSize: 1, attemptFirstMaxBatch: 32 };
  const newest = { offset: 120n, inheritedBelow: 100n };

  it('1. holds an event below the high-water mark of the first fetch: the previous owner may be attempting it', () => {
    expect(firstAttemptOf({ offset: 99n, inheritedBelow: 100n }, steady)).toBe('hold');
    expect(firstAttemptOf({ offset: 0n, inheritedBelow: 100n }, { ...steady, batchSize: 500 })).toBe('hold');
  });

  it('2. attempts a small batch first while the membership was confirmed within the trusted time', () => {
    expect(firstAttemptOf({ offset: 100n, inheritedBelow: 100n }, steady)).toBe('attempt-first');
    expect(firstAttemptOf(newest, { ...steady, batchSize: 32 })).toBe('attempt-first');
  });

  it('3. stores first when the membership was not confirmed lately, or in a burst', () => {
    expect(firstAttemptOf(newest, { ...steady, sinceConfirmed: 5_000 })).toBe('store-first');
    expect(firstAttemptOf(newest, { ...steady, batchSize: 33 })).toBe('store-first');
  });
});
