import { decodeFeedIterator, encodeFeedIterator, FEED_START } from './feed-iterator';

describe('the polling door iterator', () => {
  it('names the position it was made from', () => {
    const position = { xact: '18446744073709551615', seq: '9223372036854775807' };
    const iterator = encodeFeedIterator(position);
    expect(iterator).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(decodeFeedIterator(iterator)).toEqual(position);
    expect(decodeFeedIterator(encodeFeedIterator(FEED_START))).toEqual(FEED_START);
  });

  it.each([
    ['not a string', 42],
    ['empty', ''],
    ['not base64url', 'ab+/=='],
    ['another shape', Buffer.from('d:12').toString('base64url')],
    ['a negative seq', Buffer.from('e1:1:-2').toString('base64url')],
    ['a seq past bigint', Buffer.from('e1:1:9223372036854775808').toString('base64url')],
    ['a transaction past xid8', Buffer.from('e1:18446744073709551616:1').toString('base64url')],
    ['too long', 'A'.repeat(65)],
  ])('refuses what it did not hand out: %s', (_, iterator) => {
    expect(decodeFeedIterator(iterator)).toBeUndefined();
  });
});
