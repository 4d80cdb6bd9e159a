import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { parseSealingKeys, type SealingKey } from './sealing-keys';

/**
 * AES-256-GCM sealing of what only the dispatcher may read: tenants' shared secrets and the
 * private seeds of domains' Ed25519 keys, at rest in its tables.
 *
 * Keys: `WEBHOOK_SECRET_KEY` (see {@link parseSealingKeys}); the first seals, every one unseals.
 * Each encryption draws a fresh random 12-byte IV. The ciphertext is bound to its context (the
 * domain, or the domain and key id) with GCM's additional authenticated data, so a value copied
 * into another row does not decrypt.
 *
 * Format (text, safe for JSON and a `text` column): `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url).
 * Values of releases before key ids, `v1.<iv>.<tag>.<ciphertext>`, still unseal under any key held.
 */
export class SecretBox {
  private readonly keys: SealingKey[];

  constructor(keysText: string) {
    const keys = parseSealingKeys(keysText);
    if (keys === null) throw new TypeError('WEBHOOK_SECRET_KEY must be one or more distinct keys, each the base64 of exactly 32 bytes');
    this.keys = keys;
  }

  /** The id of the key that seals (the first of `WEBHOOK_SECRET_KEY`). */
  get sealingKeyId(): string {
    return this.keys[0].id;
  }

  encrypt(plaintext: string, context: string): string {
    if (typeof plaintext !== 'string') throw new TypeError('SecretBox.encrypt: plaintext must be a string');
    const { id, key } = this.keys[0];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(aad(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v2', id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** Throws {@link SecretBoxError} (never revealing anything about the plaintext) when it does not decrypt. */
  decrypt(sealed: string, context: string): string {
    const parts = typeof sealed === 'string' ? sealed.split('.') : [];
    if (parts.length === 5 && parts[0] === 'v2') {
      const key = this.keys.find((k) => k.id === parts[1]);
      // The id is public (it is in every sealed value): naming it tells the operator which key to bring back.
      if (!key) throw new SecretBoxError(`sealed under key ${parts[1]}, which WEBHOOK_SECRET_KEY does not hold`);
      return open(key.key, parts.slice(2), context);
    }
    if (parts.length === 4 && parts[0] === 'v1') {
      // Sealed before key ids: under whichever key sealed then, most likely the oldest held.
      for (const { key } of this.keys) {
        try {
          return open(key, parts.slice(1), context);
        } catch (error) {
          if (!(error instanceof SecretBoxError)) throw error;
        }
      }
      throw new SecretBoxError('the sealed secret does not decrypt with any key of WEBHOOK_SECRET_KEY for this context');
    }
    throw new SecretBoxError('not a sealed secret');
  }

  /** The value sealed again under the sealing key, or `null` when it is sealed under it already. Throws as {@link decrypt}. */
  rewrapped(sealed: string, context: string): string | null {
    if (sealed.startsWith(`v2.${this.sealingKeyId}.`)) {
      this.decrypt(sealed, context); // a value that does not open is reported, not taken for done
      return null;
    }
    return this.encrypt(this.decrypt(sealed, context), context);
  }
}

export class SecretBoxError extends Error {}

function open(key: Buffer, [ivText, tagText, ctText]: string[], context: string): string {
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== 12 || tag.length !== 16) throw new SecretBoxError('not a sealed secret');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
    decipher.setAAD(aad(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(ctText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('the sealed secret does not decrypt with this key for this context');
  }
}

const aad = (context: string): Buffer => Buffer.from(`tailsync.webhook-secret:${context}`, 'utf8');
