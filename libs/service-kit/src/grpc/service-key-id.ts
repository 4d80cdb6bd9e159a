import type { KeyObject } from 'node:crypto';
import { jwkThumbprint } from '@tailsync/webhooks';

/**
 * The `kid` of a service key pair: the RFC 7638 thumbprint of its public half, so a key names
 * itself and an operator never has to keep a name beside it in step.
 */
export function serviceKeyId(key: KeyObject): string {
  const { x } = key.export({ format: 'jwk' }) as { x: string };
  return jwkThumbprint({ crv: 'Ed25519', x });
}
