import { appendedSize, withinAppendSize } from './append-size';

const event = (bytes: number) => ({ eventId: crypto.randomUUID(), type: 'E', data: { p: 'x'.repeat(bytes) } });

describe('withinAppendSize', () => {
  it('groups consecutive events, each group within the limit, order kept', () => {
    const events = Array.from({ length: 10 }, () => event(300));
    const groups = withinAppendSize(events, 1_000);
    expect(groups.flat()).toEqual(events);
    for (const g of groups) expect(g.reduce((n, e) => n + appendedSize(e), 0)).toBeLessThanOrEqual(1_000);
    expect(groups.map((g) => g.length)).toEqual([3, 3, 3, 1]);
  });

  it('keeps a write within the limit whole, and gives an event over it a group of its own', () => {
    const small = [event(10), event(10)];
    expect(withinAppendSize(small, 1_000)).toEqual([small]);
    const big = event(2_000);
    expect(withinAppendSize([small[0], big, small[1]], 1_000)).toEqual([[small[0]], [big], [small[1]]]);
  });
});
