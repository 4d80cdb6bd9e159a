import { delayHonouringRetryAfter, parseRetryAfter } from './retry-after';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-06-01T12:00:00.000Z');

  it.each([
    ['120', 120_000],
    [' 3 ', 3_000],
    ['Sun, 01 Jun 2025 12:00:30 GMT', 30_000],
    ['Sunday, 01-Jun-25 12:01:00 GMT', 60_000],
    ['Sun Jun  1 12:00:05 2025', 5_000],
  ])('reads %j as %i ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([
    ['missing', undefined],
    ['zero', '0'],
    ['a date in the past', 'Sun, 01 Jun 2025 11:59:59 GMT'],
    ['now', 'Sun, 01 Jun 2025 12:00:00 GMT'],
    ['negative', '-5'],
    ['a decimal', '1.5'],
    ['garbage', 'soon'],
    ['words', 'in 5 minutes'],
    ['an ISO date (not an HTTP-date)', '2025-06-01T13:00:00Z'],
    ['empty', ''],
    ['a huge number', '9'.repeat(400)],
  ])('ignores %s', (_name, value) => {
    expect(parseRetryAfter(value, now)).toBeNull();
  });
});

describe('delayHonouringRetryAfter', () => {
  it('waits the longer of the schedule and Retry-After, Retry-After capped', () => {
    expect(delayHonouringRetryAfter(2000, null, 256_000)).toBe(2000);
    expect(delayHonouringRetryAfter(2000, 500, 256_000)).toBe(2000);
    expect(delayHonouringRetryAfter(2000, 10_000, 256_000)).toBe(10_000);
    expect(delayHonouringRetryAfter(2000, 3_600_000, 256_000)).toBe(256_000);
    expect(delayHonouringRetryAfter(300_000, 3_600_000, 256_000)).toBe(300_000);
  });
});
