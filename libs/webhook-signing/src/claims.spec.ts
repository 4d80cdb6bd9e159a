import { createHash } from 'node:crypto';
import { TOKEN_TTL_SECONDS, WEBHOOK_ISSUER, WEBHOOK_USER_AGENT, payloadHash } from './claims';

describe('claims', () => {
  it('has the contract constants', () => {
    expect(WEBHOOK_ISSUER).toBe('tailsync');
    expect(TOKEN_TTL_SECONDS).toBe(300);
    expect(WEBHOOK_USER_AGENT).toBe('tailsync-webhooks/15.4.9707.25929');
  });

  it('payloadHash is the lowercase hex SHA-256 of the exact bytes (known vectors)', () => {
    expect(payloadHash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(payloadHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(payloadHash(Buffer.from('abc'))).toBe(payloadHash('abc'));
  });

  it('hashes a string as its UTF-8 bytes', () => {
    const text = '{"city":"Zürich ✈"}';
    const expected = createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
    expect(payloadHash(text)).toBe(expected);
    expect(payloadHash(Buffer.from(text, 'utf8'))).toBe(expected);
    expect(payloadHash(text)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs for bodies that differ only in whitespace', () => {
    expect(payloadHash('{"a":1}')).not.toBe(payloadHash('{"a": 1}'));
  });
});
