import { parseTrustProxy } from './trust-proxy';

describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset or empty', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy(' ')).toBe(false);
  });

  it('reads a hop count', () => {
    expect(parseTrustProxy('2')).toBe(2);
  });

  it('reads addresses, CIDR ranges and named ranges', () => {
    expect(parseTrustProxy('10.0.0.7, 172.16.0.0/12,uniquelocal,::1,fd00::/8')).toEqual(['10.0.0.7', '172.16.0.0/12', 'uniquelocal', '::1', 'fd00::/8']);
  });

  it('refuses what is neither', () => {
    for (const bad of ['true', 'proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129', 'loopback,']) expect({ bad, parsed: parseTrustProxy(bad) }).toEqual({ bad, parsed: null });
  });
});
