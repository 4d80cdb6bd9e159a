import { createPrivateKey, createPublicKey, KeyObject } from 'node:crypto';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import type { CallerContext } from '@tailsync/contracts';

/** The metadata key a call carries its signed caller under. */
export const CALLER_METADATA_KEY = 'tailsync-caller';

/** The longest a signed caller may live (contract: "Requests between services"). */
export const CALLER_TOKEN_MAX_LIFETIME_MS = 60_000;

const ISSUER = 'tailsync-gateway';

interface CallerClaims {
  dom: string;
  sub: string;
  rid: string;
  tp?: string;
}

/**
 * The gateway's side: a compact JWS (EdDSA over Ed25519, PKCS#8 PEM key) naming the caller,
 * for one service (`aud`), living 60 s (the services allow 5 s of clock skew).
 */
export class CallerTokenSigner {
  private readonly signers = new Map<string, (claims: CallerClaims) => string>();
  private readonly key: KeyObject;

  constructor(privateKeyPem: string) {
    this.key = ed25519Key(() => createPrivateKey(privateKeyPem), 'SERVICE_SIGNING_KEY');
  }

  sign(caller: CallerContext, audience: string): string {
    const claims: CallerClaims = { dom: caller.domain, sub: caller.source, rid: caller.requestId };
    if (caller.traceparent) claims.tp = caller.traceparent;
    return this.signerFor(audience)(claims);
  }

  private signerFor(audience: string): (claims: CallerClaims) => string {
    let signer = this.signers.get(audience);
    if (!signer) {
      signer = createSigner({ key: this.key.export({ type: 'pkcs8', format: 'pem' }) as string, algorithm: 'EdDSA', iss: ISSUER, aud: audience, expiresIn: CALLER_TOKEN_MAX_LIFETIME_MS });
      this.signers.set(audience, signer);
    }
    return signer;
  }
}

/** Why a call's caller was refused; the message names the reason, never the token. */
export class CallerRefused extends Error {}

/** A service's side: accepts only a caller the gateway signed for this service, unexpired. */
export class CallerTokenVerifier {
  private readonly verify: (token: string) => CallerClaims & { iat: number; exp: number };

  constructor(publicKeyPem: string, audience: string) {
    const key = ed25519Key(() => createPublicKey(publicKeyPem), 'SERVICE_VERIFY_KEY');
    this.verify = createVerifier({
      key: key.export({ type: 'spki', format: 'pem' }) as string,
      algorithms: ['EdDSA'],
      allowedIss: ISSUER,
      allowedAud: audience,
      maxAge: CALLER_TOKEN_MAX_LIFETIME_MS,
      requiredClaims: ['iat', 'exp', 'dom', 'sub', 'rid'],
      clockTolerance: 5_000,
    });
  }

  caller(token: unknown): CallerContext {
    if (typeof token !== 'string' || token === '') throw new CallerRefused('no signed caller');
    let claims: CallerClaims & { iat: number; exp: number };
    try {
      claims = this.verify(token);
    } catch (error) {
      // fast-jwt's messages name the failed check (expired, signature, a claim), never the token.
      throw new CallerRefused(error instanceof TokenError ? `signed caller refused: ${error.message}` : 'signed caller refused');
    }
    if ((claims.exp - claims.iat) * 1000 > CALLER_TOKEN_MAX_LIFETIME_MS) throw new CallerRefused('signed caller lives longer than 60 s');
    if (typeof claims.dom !== 'string' || typeof claims.sub !== 'string' || typeof claims.rid !== 'string') throw new CallerRefused('signed caller is incomplete');
    return { domain: claims.dom, source: claims.sub, requestId: claims.rid, ...(typeof claims.tp === 'string' ? { traceparent: claims.tp } : {}) };
  }
}

function ed25519Key(read: () => KeyObject, setting: string): KeyObject {
  let key: KeyObject;
  try {
    key = read();
  } catch {
    throw new Error(`${setting} is not a PEM key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${setting} must be an Ed25519 key (it is ${key.asymmetricKeyType})`);
  return key;
}
