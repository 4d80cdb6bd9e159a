import { randomBytes } from 'node:crypto';
import { UnsealedSecrets } from './unsealed-secrets';
import { SecretBox, SecretBoxError } from '../sealing/secret-box';

describe('UnsealedSecrets: each sealed secret unsealed once', () => {
  const box = new SecretBox(randomBytes(32).toString('base64'));
  const unsealing = jest.spyOn(box, 'decrypt');
  const secrets = new UnsealedSecrets(box);
  beforeEach(() => unsealing.mockClear());

  it('unseals a secret on first use only', () => {
    const sealed = box.encrypt('first secret', 'acme');
    expect([secrets.decrypt(sealed, 'acme'), secrets.decrypt(sealed, 'acme')]).toEqual(['first secret', 'first secret']);
    expect(unsealing).toHaveBeenCalledTimes(1);
  });

  it('unseals a rotated secret (new sealed text) anew', () => {
    const before = box.encrypt('before rotation', 'acme');
    const after = box.encrypt('after rotation', 'acme');
    expect(secrets.decrypt(before, 'acme')).toBe('before rotation');
    expect(secrets.decrypt(after, 'acme')).toBe('after rotation');
    expect(unsealing).toHaveBeenCalledTimes(2);
  });

  it('refuses, every time, a text that does not unseal, or that was sealed for another domain', () => {
    const othersText = box.encrypt('globex secret', 'globex');
    secrets.decrypt(othersText, 'globex');
    for (let i = 0; i < 2; i++) {
      expect(() => secrets.decrypt(othersText, 'acme')).toThrow(SecretBoxError);
      expect(() => secrets.decrypt('v1.not.a.secret', 'acme')).toThrow(SecretBoxError);
    }
  });
});
