import { createHash } from 'node:crypto';

/** One AES-256-GCM key of `WEBHOOK_SECRET_KEY`, with the id its sealed values carry. */
export interface SealingKey {
  id: string;
  key: Buffer;
}

/**
 * The id of a sealing key: 16 hex of SHA-256 of `"tailsync-sealing-key:" + key`. Derived rather
 * than chosen, so two keys never share an id and an operator has nothing to keep in step.
 */
export function sealingKeyId(key: Buffer): string {
  return createHash('sha256').update('tailsync-sealing-key:').update(key).digest('hex').slice(0, 16);
}

/**
 * The keys of `WEBHOOK_SECRET_KEY`: base64 of 32 bytes each, separated by commas or white space
 * (one a line in a file). The first seals; the others only unseal, so a new key can come in
 * while values sealed under the old one are rewrapped. `null` when any is not such a key, or none
 * is given, or one is given twice.
 */
export function parseSealingKeys(text: unknown): SealingKey[] | null {
  if (typeof text !== 'string') return null;
  const keys: SealingKey[] = [];
  for (const item of text.split(/[\s,]+/).filter(Boolean)) {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(item)) return null;
    const key = Buffer.from(item, 'base64');
    if (key.length !== 32) return null;
    keys.push({ id: sealingKeyId(key), key });
  }
  if (keys.length === 0 || new Set(keys.map((k) => k.id)).size !== keys.length) return null;
  return keys;
}
