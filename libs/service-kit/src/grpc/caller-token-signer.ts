import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { CALLER_ISSUER, CALLER_TOKEN_MAX_LIFETIME_MS, type CallerClaims, type CallerIdentity } from './caller-token';
import { serviceKeyId } from './service-key-id';
import { ed25519Key } from './ed25519-key';

/** A signed caller and the moment it stops being valid (epoch ms). */
export interface SignedCaller {
  token: string;
  expiresAtMs: number;
}

/** What signs callers: a key (CallerTokenSigner), or the key in use while it may change. */
export type CallerSigning = Pick<CallerTokenSigner, 'kid' | 'sign'>;

/**
 * The gateway's side: a compact JWS (EdDSA, the PKCS#8 PEM `SERVICE_SIGNING_KEY`, its `kid` in
 * the header) naming the caller for one service (`aud`), living 60 s from `now()`.
 */
export class CallerTokenSigner {
  /** The thumbprint of the public half: the services find the key they verify with by it. */
  readonly kid: string;
  private readonly signers = new Map<string, (claims: CallerClaims & { iat: number; exp: number }) => string>();
  private readonly pem: string;

  constructor(
    privateKeyPem: string,
    private readonly now: () => number = Date.now,
  ) {
    const key: KeyObject = ed25519Key(() => createPrivateKey(privateKeyPem), 'SERVICE_SIGNING_KEY');
    this.kid = serviceKeyId(createPublicKey(key));
    this.pem = key.export({ type: 'pkcs8', format: 'pem' }) as string;
  }

  sign(caller: CallerIdentity, audience: string): SignedCaller {
    const iat = Math.floor(this.now() / 1000);
    const exp = iat + CALLER_TOKEN_MAX_LIFETIME_MS / 1000;
    const token = this.signerFor(audience)({ dom: caller.domain, sub: caller.source, role: caller.role, iat, exp });
    return { token, expiresAtMs: exp * 1000 };
  }

  private signerFor(audience: string): (claims: CallerClaims & { iat: number; exp: number }) => string {
    let signer = this.signers.get(audience);
    if (!signer) {
      // iat and exp come with the claims (fast-jwt keeps given ones): the lifetime follows `now`.
      signer = createSigner({ key: this.pem, algorithm: 'EdDSA', kid: this.kid, iss: CALLER_ISSUER, aud: audience });
      this.signers.set(audience, signer);
    }
    return signer;
  }
}
