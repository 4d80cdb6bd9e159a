import { createHash } from 'node:crypto';

/**
 * The id of a shared secret, carried as the JWT header's `kid`: the first 16 lowercase hex
 * characters of SHA-256 of `"tailsync-secret:" + secret` (UTF-8). It names a secret without
 * revealing it, so a receiver holding several (a rotation) picks the right one at once.
 */
export function secretId(secret: string): string {
  return createHash('sha256').update(`tailsync-secret:${secret}`, 'utf8').digest('hex').slice(0, 16);
}
