import { createPublicKey, type KeyObject } from 'node:crypto';
import { ed25519Key } from './ed25519-key';
import { serviceKeyId } from './service-key-id';

const PEM_PUBLIC_KEY = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g;

/**
 * `SERVICE_VERIFY_KEY` as the services read it: one or more SPKI PEM public keys one after the
 * other, each known by its thumbprint (`kid`). Listing the next key beside the current one lets
 * the pair rotate one copy at a time.
 */
export function serviceVerifyKeys(pems: string): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const [pem] of pems.matchAll(PEM_PUBLIC_KEY)) {
    const key = ed25519Key(() => createPublicKey(pem), 'SERVICE_VERIFY_KEY');
    keys.set(serviceKeyId(key), key);
  }
  if (keys.size === 0) throw new Error('SERVICE_VERIFY_KEY holds no PEM public key (-----BEGIN PUBLIC KEY-----)');
  return keys;
}
