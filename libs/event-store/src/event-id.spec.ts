import { newEventId } from './event-id';

describe('newEventId', () => {
  it('makes RFC 9562 version-7 UUIDs, unique, sorting in the order they were made', () => {
    const before = Date.now();
    const ids = Array.from({ length: 10_000 }, () => newEventId());
    const after = Date.now();
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Later ids sort after earlier ones (the index grows at its right edge).
    expect([...ids].sort()).toEqual(ids);
    // The first 48 bits are the creation time in milliseconds.
    const ms = parseInt(ids[0].replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });
});
