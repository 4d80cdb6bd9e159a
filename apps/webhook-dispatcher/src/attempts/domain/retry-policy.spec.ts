import {
  DEFAULT_RETRY_DELAYS_MS,
  classifyAttempt,
  maxAttempts,
  nextAttemptDelay,
  parseRetryDelays,
} from './retry-policy';

describe('retry policy', () => {
  describe('DEFAULT_RETRY_DELAYS_MS', () => {
    it('is 2, 4, … 256 s: 9 attempts over 510 s (about 8.5 minutes)', () => {
      expect(DEFAULT_RETRY_DELAYS_MS).toEqual([2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000]);
      expect(DEFAULT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBe(510_000);
      expect(maxAttempts()).toBe(9);
    });

    it('cannot be mutated by a caller', () => {
      expect(Object.isFrozen(DEFAULT_RETRY_DELAYS_MS)).toBe(true);
    });
  });

  describe('parseRetryDelays', () => {
    it.each([undefined, '', '   '])('returns (a copy of) the defaults for %p', (env) => {
      const delays = parseRetryDelays(env);
      expect(delays).toEqual(DEFAULT_RETRY_DELAYS_MS);
      expect(delays).not.toBe(DEFAULT_RETRY_DELAYS_MS);
    });

    it.each([
      ['50,100,200', [50, 100, 200]],
      [' 10 , 20 ', [10, 20]],
      ['0', [0]],
      ['0,0,0', [0, 0, 0]],
      ['2147483647', [2147483647]],
    ])('parses %p', (env, expected) => {
      expect(parseRetryDelays(env)).toEqual(expected);
    });

    it.each(['abc', '1,,2', '1,', ',1', '-1', '1.5', '1e3', '0x10', '10ms', '1;2', '+5', 'Infinity', 'NaN', '2147483648'])(
      'rejects %p with an error naming WEBHOOK_RETRY_DELAYS_MS',
      (env) => {
        expect(() => parseRetryDelays(env)).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
      },
    );

    it('says which item is wrong', () => {
      expect(() => parseRetryDelays('10,x,30')).toThrow(/item 2 is "x"/);
      expect(() => parseRetryDelays('10,,30')).toThrow(/item 2 is empty/);
    });
  });

  describe('classifyAttempt', () => {
    it.each([200, 201, 202, 204, 299])('%i is delivered', (statusCode) => {
      expect(classifyAttempt({ statusCode })).toBe('delivered');
    });

    it.each([500, 502, 503, 504, 599, 408, 429])('%i is retried (temporary problem)', (statusCode) => {
      expect(classifyAttempt({ statusCode })).toBe('retry');
    });

    it.each([400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 499])('%i gives up (client/authentication error)', (statusCode) => {
      expect(classifyAttempt({ statusCode })).toBe('give-up');
    });

    it.each([300, 301, 302, 303, 304, 307, 308])('%i gives up (redirects are not followed)', (statusCode) => {
      expect(classifyAttempt({ statusCode })).toBe('give-up');
    });

    it.each([100, 199, 600, 999])('%i (not a final, valid status) gives up', (statusCode) => {
      expect(classifyAttempt({ statusCode })).toBe('give-up');
    });

    it.each(['timeout', 'connection', 'ECONNRESET', 'EAI_AGAIN', 'UND_ERR_SOCKET'])('error %p is retried', (error) => {
      expect(classifyAttempt({ error })).toBe('retry');
    });

    it.each(['ssrf', 'ESSRF', 'invalid-url', 'ERR_INVALID_URL'])('error %p gives up (retrying cannot help)', (error) => {
      expect(classifyAttempt({ error })).toBe('give-up');
    });

    it('lets a status code win over an error (a response did arrive)', () => {
      expect(classifyAttempt({ statusCode: 204, error: 'timeout' })).toBe('delivered');
      expect(classifyAttempt({ statusCode: 401, error: 'connection' })).toBe('give-up');
    });

    it('throws on an empty or malformed outcome', () => {
      expect(() => classifyAttempt({})).toThrow(TypeError);
      expect(() => classifyAttempt({ error: '' })).toThrow(TypeError);
      expect(() => classifyAttempt({ statusCode: 200.5 })).toThrow(TypeError);
    });
  });

  describe('nextAttemptDelay', () => {
    it('walks the default schedule and stops after the 9th attempt', () => {
      const schedule = Array.from({ length: 10 }, (_, i) => nextAttemptDelay(i + 1, DEFAULT_RETRY_DELAYS_MS));
      expect(schedule).toEqual([2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, null, null]);
    });

    it('gives N + 1 attempts for N delays', () => {
      const delays = parseRetryDelays('10,20');
      expect(nextAttemptDelay(1, delays)).toBe(10);
      expect(nextAttemptDelay(2, delays)).toBe(20);
      expect(nextAttemptDelay(3, delays)).toBeNull();
      expect(maxAttempts(delays)).toBe(3);
      expect(nextAttemptDelay(1, [])).toBeNull();
    });

    it('defaults to the default schedule', () => {
      expect(nextAttemptDelay(1)).toBe(2000);
    });

    it.each([0, -1, 1.5, NaN])('rejects attempt number %p', (n) => {
      expect(() => nextAttemptDelay(n, DEFAULT_RETRY_DELAYS_MS)).toThrow(RangeError);
    });
  });
});
