import { comparePairs, isPairAtOrAfter, parsePair } from './checkpoint';

/** The comparison by value: both numbers parsed. */
function byValue(a: string, b: string): number {
  const [a1, a2] = parsePair(a);
  const [b1, b2] = parsePair(b);
  if (a1 !== b1) return a1 < b1 ? -1 : 1;
  if (a2 !== b2) return a2 < b2 ? -1 : 1;
  return 0;
}

describe('comparePairs', () => {
  const values = [
    '0:0', '0:1', '1:0', '9:9', '10:1', '9:10', '007:3', '7:03', '7:3', '100:99', '99:100',
    '18446744073709551615:1', '18446744073709551616:0', '123456789012345678901234567890:5', '2:18446744073709551617',
  ];

  it('orders checkpoints as numbers, leading zeros and numbers beyond 64 bits included', () => {
    for (const a of values) for (const b of values) expect([a, b, comparePairs(a, b)]).toEqual([a, b, byValue(a, b)]);
  });

  it('agrees with the numeric order on random pairs', () => {
    let seed = 7;
    const digits = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return String(seed >>> 8).slice(0, 1 + ((seed >>> 4) % 6));
    };
    for (let i = 0; i < 5_000; i++) {
      const a = `${digits()}:${digits()}`;
      const b = `${digits()}:${digits()}`;
      expect(comparePairs(a, b)).toBe(byValue(a, b));
    }
  });

  it('rejects malformed checkpoints', () => {
    for (const bad of ['', '1', '1:', ':1', '1:2:3', '-1:2', '1:x', ' 1:2']) {
      expect(() => comparePairs(bad, '1:1')).toThrow(/Malformed event store checkpoint/);
      expect(() => comparePairs('1:1', bad)).toThrow(/Malformed event store checkpoint/);
    }
  });

  it('isPairAtOrAfter: null is before everything', () => {
    expect(isPairAtOrAfter(null, { value: '0:0' })).toBe(false);
    expect(isPairAtOrAfter({ value: '5:2' }, { value: '5:2' })).toBe(true);
    expect(isPairAtOrAfter({ value: '5:2' }, { value: '5:10' })).toBe(false);
  });
});
