import { BoundedLru } from './bounded-lru';

describe('BoundedLru', () => {
  it('keeps at most its capacity, forgetting the entry read or written longest ago', () => {
    const lru = new BoundedLru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.size]).toEqual([1, undefined, 3, 2]);
  });

  it('refuses a capacity below one', () => {
    expect(() => new BoundedLru(0)).toThrow(/capacity/);
  });
});
