import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError } from './secret-box';
import { parseSealingKeys, sealingKeyId } from './sealing-keys';

const newKey = () => randomBytes(32).toString('base64');

describe('SecretBox (AES-256-GCM, keys with ids)', () => {
  const key = newKey();
  const box = new SecretBox(key);
  const secret = randomBytes(64).toString('hex');

  it('round-trips, names the sealing key in the sealed text, and never shows the plaintext', () => {
    const sealed = box.encrypt(secret, 'acme');
    expect(sealed).toMatch(/^v2\.[0-9a-f]{16}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed.split('.')[1]).toBe(box.sealingKeyId);
    expect(box.sealingKeyId).toBe(sealingKeyId(Buffer.from(key, 'base64')));
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64url').slice(0, 20));
    expect(box.decrypt(sealed, 'acme')).toBe(secret);
  });

  it('uses a fresh IV each time', () => {
    expect(box.encrypt(secret, 'acme')).not.toBe(box.encrypt(secret, 'acme'));
  });

  it('refuses another context, a key it does not hold (naming its id), and any tampering', () => {
    const sealed = box.encrypt(secret, 'acme');
    expect(() => box.decrypt(sealed, 'globex')).toThrow(SecretBoxError);
    expect(() => new SecretBox(newKey()).decrypt(sealed, 'acme')).toThrow(new SecretBoxError(`sealed under key ${box.sealingKeyId}, which WEBHOOK_SECRET_KEY does not hold`));
    const [v, id, iv, tag, ct] = sealed.split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.decrypt([v, id, iv, tag, flipped.toString('base64url')].join('.'), 'acme')).toThrow(SecretBoxError);
    expect(() => box.decrypt('garbage', 'acme')).toThrow(SecretBoxError);
    expect(() => box.decrypt(`v2.${id}.${iv}.${tag}`, 'acme')).toThrow(SecretBoxError);
  });

  it('error messages never carry the secret', () => {
    expect(() => box.decrypt(box.encrypt(secret, 'acme'), 'other')).toThrow(expect.objectContaining({ message: expect.not.stringContaining(secret) }));
  });

  it('still unseals a value of the previous release (v1, no key id) under any key it holds', () => {
    // Sealed by the previous release's SecretBox with the key of 32 bytes of 0x01, for domain acme.
    const legacyKey = Buffer.alloc(32, 1).toString('base64');
    const legacy = 'v1.S_MJqW3OldZWfXXv.HaELm4bI5RB2Tz8unM_Vsw.WlDmW1V867KeuaaNsO0UZDOVXp4BUrm9_FY5q_nuZsIT2tpzBWXL';
    expect(new SecretBox(legacyKey).decrypt(legacy, 'acme')).toBe('a-secret-sealed-by-the-previous-release');
    expect(new SecretBox(`${newKey()}\n${legacyKey}\n`).decrypt(legacy, 'acme')).toBe('a-secret-sealed-by-the-previous-release');
    expect(() => new SecretBox(newKey()).decrypt(legacy, 'acme')).toThrow(SecretBoxError);
    expect(() => new SecretBox(legacyKey).decrypt(legacy, 'globex')).toThrow(SecretBoxError);
  });

  it('with a new key first, seals under it and still unseals what the old key sealed; rewraps only what is not under it', () => {
    const next = newKey();
    const rotated = new SecretBox(`${next},${key}`);
    const old = box.encrypt(secret, 'acme');
    expect(rotated.sealingKeyId).not.toBe(box.sealingKeyId);
    expect(rotated.decrypt(old, 'acme')).toBe(secret);
    const rewrapped = rotated.rewrapped(old, 'acme')!;
    expect(rewrapped.split('.')[1]).toBe(rotated.sealingKeyId);
    expect(new SecretBox(next).decrypt(rewrapped, 'acme')).toBe(secret); // the old key is no longer needed
    expect(rotated.rewrapped(rewrapped, 'acme')).toBeNull();
    expect(() => rotated.rewrapped(new SecretBox(newKey()).encrypt(secret, 'acme'), 'acme')).toThrow(SecretBoxError);
  });

  it('accepts only distinct base64 32-byte keys, and says so without showing them', () => {
    expect(parseSealingKeys(key)).toEqual([{ id: sealingKeyId(Buffer.from(key, 'base64')), key: Buffer.from(key, 'base64') }]);
    expect(parseSealingKeys(` ${key}\n${newKey()}\n`)).toHaveLength(2);
    expect(parseSealingKeys(randomBytes(16).toString('base64'))).toBeNull();
    expect(parseSealingKeys(`${key},${key}`)).toBeNull();
    expect(parseSealingKeys('not base64!')).toBeNull();
    expect(parseSealingKeys(' ')).toBeNull();
    expect(parseSealingKeys(undefined)).toBeNull();
    expect(() => new SecretBox('short')).toThrow(/WEBHOOK_SECRET_KEY/);
  });
});

