import { nextAllowance } from './adaptive-allowance';

describe('nextAllowance: the adaptive in-flight allowance of an uncapped domain', () => {
  const answer = (statusCode: number | null, retryAfterGiven = false) => ({ statusCode, retryAfterGiven });

  it('halves on 502, 503, 504 and on 429 without Retry-After, never below 1', () => {
    expect([502, 503, 504, 429].map((s) => nextAllowance(16, 16, answer(s)))).toEqual([8, 8, 8, 8]);
    expect(nextAllowance(3, 16, answer(503))).toBe(1);
    expect(nextAllowance(1, 16, answer(503))).toBe(1);
  });

  it('leaves it on a 429 or 503 with a valid Retry-After only for 429 (503 is overload either way), on other failures and on no answer', () => {
    expect(nextAllowance(8, 16, answer(429, true))).toBe(8);
    expect(nextAllowance(8, 16, answer(503, true))).toBe(4);
    expect([500, 404, 410, 408, null].map((s) => nextAllowance(8, 16, answer(s)))).toEqual([8, 8, 8, 8, 8]);
  });

  it('gives the whole allowance back on a success', () => {
    expect([200, 204, 299].map((s) => nextAllowance(1, 16, answer(s)))).toEqual([16, 16, 16]);
  });
});
