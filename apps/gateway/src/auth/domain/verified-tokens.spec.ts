import { VerifiedTokens } from './verified-tokens';

describe('VerifiedTokens', () => {
  const claims = (exp: number) => ({ sub: 'sa_1', dom: 'acme', exp, iat_ms: 0 });

  it('answers a remembered token until it expires, then forgets it', () => {
    const tokens = new VerifiedTokens();
    tokens.remember('t1', claims(100));
    expect(tokens.get('t1', 99_999)).toEqual(claims(100));
    expect(tokens.get('t1', 100_000)).toBeUndefined();
    expect(tokens.get('t1', 50_000)).toBeUndefined(); // gone, even for an earlier clock
    expect(tokens.get('other', 0)).toBeUndefined();
  });

  it('never holds more than its capacity', () => {
    const tokens = new VerifiedTokens(3);
    for (const t of ['a', 'b', 'c', 'd']) tokens.remember(t, claims(100));
    expect(tokens.get('d', 0)).toBeDefined();
    expect(['a', 'b', 'c'].filter((t) => tokens.get(t, 0) !== undefined)).toEqual([]);
  });
});
