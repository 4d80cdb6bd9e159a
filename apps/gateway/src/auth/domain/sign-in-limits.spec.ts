import { blockedForSeconds, MAX_SLOWDOWN_MS, slowdownMs } from './sign-in-limits';

describe('sign-in limits', () => {
  const failed = (...ages: number[]) => ages.map((ageSeconds) => ({ ageSeconds, checking: false }));

  it('block a key with `limit` failures in the last minute until the one that frees a place is a minute old', () => {
    expect(blockedForSeconds(failed(50, 40, 30), 4)).toBeNull();
    expect(blockedForSeconds(failed(50, 40, 30, 1), 4)).toBe(10);
    expect(blockedForSeconds(failed(59.9, 40, 30, 1), 4)).toBe(1);
    expect(blockedForSeconds(failed(59.9, 40, 30, 1, 0), 4)).toBe(20);
  });

  it('count attempts still being checked, so parallel guesses cannot pass together; they hold a place only for a moment', () => {
    expect(blockedForSeconds([...failed(50, 40), { ageSeconds: 0, checking: true }, { ageSeconds: 0, checking: true }], 4)).toBe(1);
    expect(blockedForSeconds([...failed(50, 40), { ageSeconds: 0, checking: true }], 4)).toBeNull();
  });

  it('slow a key from the limit on, doubling, never beyond a few seconds', () => {
    expect(slowdownMs(9, 10)).toBe(0);
    expect(slowdownMs(10, 10)).toBe(250);
    expect(slowdownMs(11, 10)).toBe(500);
    expect(slowdownMs(10_000, 10)).toBe(MAX_SLOWDOWN_MS);
  });
});
