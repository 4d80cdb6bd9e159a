import { randomBytes } from 'node:crypto';
import { parseSecretBoxKey, SecretBox, SecretBoxError } from './secret-box';

describe('SecretBox (AES-256-GCM)', () => {
  const key = randomBytes(32).toString('base64');
  const box = new SecretBox(key);
  const secret = randomBytes(64).toString('hex');

  it('round-trips and never shows the plaintext in the sealed text', () => {
    const sealed = box.encrypt(secret, 'acme');
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64url').slice(0, 20));
    expect(box.decrypt(sealed, 'acme')).toBe(secret);
  });

  it('uses a fresh IV each time', () => {
    expect(box.encrypt(secret, 'acme')).not.toBe(box.encrypt(secret, 'acme'));
  });

  it('refuses another domain, another key, and any tampering', () => {
    const sealed = box.encrypt(secret, 'acme');
    expect(() => box.decrypt(sealed, 'globex')).toThrow(SecretBoxError);
    expect(() => new SecretBox(randomBytes(32).toString('base64')).decrypt(sealed, 'acme')).toThrow(SecretBoxError);
    const [v, iv, tag, ct] = sealed.split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.decrypt([v, iv, tag, flipped.toString('base64url')].join('.'), 'acme')).toThrow(SecretBoxError);
    expect(() => box.decrypt('garbage', 'acme')).toThrow(SecretBoxError);
    expect(() => box.decrypt(`v1.${iv}.${tag}`, 'acme')).toThrow(SecretBoxError);
  });

  it('error messages never carry the secret', () => {
    try {
      box.decrypt(box.encrypt(secret, 'acme'), 'other');
    } catch (error) {
      expect(String(error)).not.toContain(secret);
    }
  });

  it('accepts only a base64 32-byte key', () => {
    expect(parseSecretBoxKey(key)).toHaveLength(32);
    expect(parseSecretBoxKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(parseSecretBoxKey('not base64!')).toBeNull();
    expect(parseSecretBoxKey(undefined)).toBeNull();
    expect(() => new SecretBox('short')).toThrow(/WEBHOOK_SECRET_KEY/);
  });
});
