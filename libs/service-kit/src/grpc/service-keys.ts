import { generateKeyPairSync } from 'node:crypto';

/** The Ed25519 pair that signs the caller of the gateway's service calls: the gateway's half, the services' half (PEM). */
export interface ServiceKeys {
  SERVICE_SIGNING_KEY: string;
  SERVICE_VERIFY_KEY: string;
}

export function newServiceKeys(): ServiceKeys {
  const pair = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  return { SERVICE_SIGNING_KEY: pair.privateKey, SERVICE_VERIFY_KEY: pair.publicKey };
}
