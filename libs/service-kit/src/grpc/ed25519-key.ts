import type { KeyObject } from 'node:crypto';

/** A setting's PEM read as an Ed25519 key; otherwise an error naming the setting, never the key. */
export function ed25519Key(read: () => KeyObject, setting: string): KeyObject {
  let key: KeyObject;
  try {
    key = read();
  } catch {
    throw new Error(`${setting} is not a PEM key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${setting} must be an Ed25519 key (it is ${key.asymmetricKeyType})`);
  return key;
}
