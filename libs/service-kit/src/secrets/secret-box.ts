import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM encryption of webhook shared secrets (at rest in the dispatcher's table, and on the
 * wire from the gateway to the dispatcher, so no Kafka message ever carries a secret in clear).
 *
 * Key: `WEBHOOK_SECRET_KEY`, the base64 of 32 random bytes. Each encryption draws a fresh random
 * 12-byte IV. The ciphertext is bound to its domain with GCM's additional authenticated data, so a
 * ciphertext copied into another domain's row does not decrypt.
 *
 * Format (text, safe for JSON and a `text` column): `v1.<iv b64url>.<tag b64url>.<ciphertext b64url>`.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(base64Key: string) {
    const key = parseSecretBoxKey(base64Key);
    if (key === null) throw new TypeError('WEBHOOK_SECRET_KEY must be the base64 of exactly 32 bytes');
    this.key = key;
  }

  encrypt(plaintext: string, domain: string): string {
    if (typeof plaintext !== 'string') throw new TypeError('SecretBox.encrypt: plaintext must be a string');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(domain));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return ['v1', iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** Throws {@link SecretBoxError} (never revealing anything about the plaintext) when it does not decrypt. */
  decrypt(sealed: string, domain: string): string {
    const parts = typeof sealed === 'string' ? sealed.split('.') : [];
    if (parts.length !== 4 || parts[0] !== 'v1') throw new SecretBoxError('not a sealed secret');
    const [, ivText, tagText, ctText] = parts;
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== 12 || tag.length !== 16) throw new SecretBoxError('not a sealed secret');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: 16 });
      decipher.setAAD(aad(domain));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(ctText, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('the sealed secret does not decrypt with this key for this domain');
    }
  }
}

export class SecretBoxError extends Error {}

/** The 32-byte key from its base64 text, or `null` when it is not exactly that. */
export function parseSecretBoxKey(base64Key: unknown): Buffer | null {
  if (typeof base64Key !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64Key.trim())) return null;
  const key = Buffer.from(base64Key.trim(), 'base64');
  return key.length === 32 ? key : null;
}

const aad = (domain: string): Buffer => Buffer.from(`tailsync.webhook-secret:${domain}`, 'utf8');
