import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/** The JWT algorithm of a subscription with `signatureScheme: "ed25519"` (RFC 8037). */
export const WEBHOOK_EDDSA_ALGORITHM = 'EdDSA';

/** Where the service publishes a domain's public keys: `<base URL>/.well-known/webhooks/jwks.json?domain=<domain>`. */
export const WEBHOOK_JWKS_PATH = '/.well-known/webhooks/jwks.json';

/** One public key of the set: an Ed25519 key (RFC 8037) named by its `kid`. */
export interface WebhookPublicJwk {
  kty: string;
  crv?: string;
  x?: string;
  kid?: string;
  alg?: string;
  use?: string;
  [other: string]: unknown;
}

/** A JWK Set as `GET /.well-known/webhooks/jwks.json?domain=…` answers it. */
export interface WebhookJwks {
  keys: readonly WebhookPublicJwk[];
}

/** The public keys a receiver trusts: the fetched JWK Set, or its `keys`. */
export type WebhookPublicKeys = WebhookJwks | readonly WebhookPublicJwk[];

/** The JWK Set URL of a domain, from the service's public base URL. */
export function webhookJwksUrl(baseUrl: string, domain: string): string {
  const url = new URL(WEBHOOK_JWKS_PATH.slice(1), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.searchParams.set('domain', domain);
  return url.toString();
}

/**
 * The RFC 7638 thumbprint of an Ed25519 public key (SHA-256 of `{"crv","kty","x"}`, base64url):
 * the `kid` the service gives each of its keys, so a receiver can check a key's name itself.
 */
export function jwkThumbprint(jwk: Pick<WebhookPublicJwk, 'crv' | 'x'>): string {
  return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: 'OKP', x: jwk.x })).digest('base64url');
}

/** @internal A usable Ed25519 public key of the set. */
export interface Ed25519Key {
  kid: string | undefined;
  key: KeyObject;
}

const keyCache = new WeakMap<object, Ed25519Key[]>();

/**
 * @internal The Ed25519 keys of the set (others are ignored: a set may grow other kinds). Throws a
 * TypeError (a programming error) when `keys` is not a set or a list of keys.
 */
export function ed25519Keys(keys: WebhookPublicKeys, caller: string): Ed25519Key[] {
  const list = Array.isArray(keys) ? keys : (keys as WebhookJwks | undefined)?.keys;
  if (!Array.isArray(list)) throw new TypeError(`${caller}: publicKeys must be a JWK Set ({ keys: [...] }) or a list of JWKs`);
  const cached = keyCache.get(list);
  if (cached) return cached;
  const usable: Ed25519Key[] = [];
  for (const jwk of list as WebhookPublicJwk[]) {
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string' || (jwk.use !== undefined && jwk.use !== 'sig')) continue;
    try {
      usable.push({ kid: typeof jwk.kid === 'string' ? jwk.kid : undefined, key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }) });
    } catch {
      // A key that does not parse verifies nothing.
    }
  }
  keyCache.set(list, usable);
  return usable;
}

/** @internal Whether `signature` is the Ed25519 signature of `data` by one of `keys`. */
export function ed25519Verifies(keys: readonly Ed25519Key[], data: Buffer, signature: Buffer): boolean {
  if (signature.length !== 64) return false;
  return keys.some(({ key }) => verify(null, data, key, signature));
}
