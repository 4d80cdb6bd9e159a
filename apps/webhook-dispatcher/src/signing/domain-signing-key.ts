import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { jwkThumbprint, WEBHOOK_EDDSA_ALGORITHM, type WebhookClaims, type WebhookPublicJwk } from '@tailsync/webhooks';

/** A new key pair's parts as they are stored: the public half as its JWK `x`, the private seed to be sealed. */
export interface NewSigningKeyPair {
  kid: string;
  /** base64url of the 32-byte public key (the JWK's `x`). */
  publicKey: string;
  /** base64url of the 32-byte private seed (the JWK's `d`); sealed before it is stored. */
  privateSeed: string;
}

/** A fresh Ed25519 key pair, named by its RFC 7638 thumbprint. */
export function newSigningKeyPair(): NewSigningKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' }) as { x: string; d: string };
  return { kid: jwkThumbprint({ crv: 'Ed25519', x: jwk.x }), publicKey: jwk.x, privateSeed: jwk.d };
}

/** The public JWK of a stored key, as the JWK Set lists it. */
export function publicJwk(kid: string, publicKey: string): WebhookPublicJwk {
  return { kty: 'OKP', crv: 'Ed25519', x: publicKey, kid, alg: WEBHOOK_EDDSA_ALGORITHM, use: 'sig' };
}

/** One domain's Ed25519 signing key, unsealed in memory: signs a callback's JWT and its `v1a` signature. */
export class DomainSigningKey {
  private readonly key: KeyObject;
  private readonly signer: (claims: WebhookClaims) => string;

  constructor(
    readonly kid: string,
    publicKey: string,
    privateSeed: string,
  ) {
    this.key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey, d: privateSeed }, format: 'jwk' });
    // The claims carry iat and exp themselves (fast-jwt keeps a given iat), as for HS256.
    this.signer = createSigner({ key: this.key.export({ type: 'pkcs8', format: 'pem' }) as string, algorithm: WEBHOOK_EDDSA_ALGORITHM, kid });
  }

  signJwt(claims: WebhookClaims): string {
    return this.signer({ ...claims });
  }

  /** base64 Ed25519 signature of the text (Standard Webhooks `v1a`). */
  signText(text: string): string {
    return sign(null, Buffer.from(text, 'utf8'), this.key).toString('base64');
  }
}
