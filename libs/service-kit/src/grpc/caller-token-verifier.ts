import type { KeyObject } from 'node:crypto';
import { createVerifier, TokenError } from 'fast-jwt';
import {
  CALLER_CLOCK_TOLERANCE_MS, CALLER_ISSUER, CALLER_ROLES, CALLER_TOKEN_MAX_LIFETIME_MS, type CallerClaims, type CallerIdentity, CallerRefused, type CallerRole,
} from './caller-token';

/** A caller whose signature, issuer, audience and lifetime were checked, and until when it may be trusted (epoch ms). */
export interface VerifiedCaller {
  identity: CallerIdentity;
  trustedUntilMs: number;
}

type Verify = (token: string) => Partial<CallerClaims> & { iat?: unknown; exp?: unknown };

/**
 * A service's side: accepts only a caller the gateway signed for this service with a key it lists
 * (chosen by the header's `kid`), issued and unexpired at `now()` within 5 s of clock skew, living
 * at most 60 s, naming a known role.
 */
export class CallerTokenVerifier {
  private readonly verifiers = new Map<string, Verify>();

  constructor(
    keys: Map<string, KeyObject>,
    audience: string,
    private readonly now: () => number = Date.now,
  ) {
    for (const [kid, key] of keys) {
      this.verifiers.set(kid, createVerifier({
        key: key.export({ type: 'spki', format: 'pem' }) as string,
        algorithms: ['EdDSA'],
        allowedIss: CALLER_ISSUER,
        allowedAud: audience,
        requiredClaims: ['iat', 'exp', 'dom', 'sub', 'role'],
        // Time is checked below, against `now`, so one clock decides both here and in the cache.
        ignoreExpiration: true,
        ignoreNotBefore: true,
      }) as Verify);
    }
  }

  verify(token: unknown): VerifiedCaller {
    if (typeof token !== 'string' || token === '') throw new CallerRefused('no signed caller');
    const kid = kidOf(token);
    if (kid === undefined) throw new CallerRefused('signed caller refused: not a compact JWS naming its key (kid)');
    const verify = this.verifiers.get(kid);
    if (!verify) throw new CallerRefused('signed caller refused: its key (kid) is not one SERVICE_VERIFY_KEY lists');
    let claims: ReturnType<Verify>;
    try {
      claims = verify(token);
    } catch (error) {
      // fast-jwt's messages name the failed check (signature, a claim), never the token.
      throw new CallerRefused(error instanceof TokenError ? `signed caller refused: ${error.message}` : 'signed caller refused');
    }
    return { identity: identityOf(claims), trustedUntilMs: this.trustedUntil(claims) };
  }

  private trustedUntil({ iat, exp }: { iat?: unknown; exp?: unknown }): number {
    if (!Number.isInteger(iat) || !Number.isInteger(exp)) throw new CallerRefused('signed caller refused: iat and exp must be whole seconds');
    const [issuedMs, expiresMs] = [(iat as number) * 1000, (exp as number) * 1000];
    if (expiresMs - issuedMs > CALLER_TOKEN_MAX_LIFETIME_MS) throw new CallerRefused('signed caller lives longer than 60 s');
    const now = this.now();
    if (issuedMs > now + CALLER_CLOCK_TOLERANCE_MS) throw new CallerRefused('signed caller refused: issued in the future');
    if (expiresMs + CALLER_CLOCK_TOLERANCE_MS <= now) throw new CallerRefused('signed caller refused: the token has expired');
    return expiresMs + CALLER_CLOCK_TOLERANCE_MS;
  }
}

/** The `kid` of a compact JWS's header, when it has one to read. */
function kidOf(token: string): string | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8')) as { kid?: unknown } | null;
    return typeof header?.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

function identityOf({ dom, sub, role }: Partial<CallerClaims>): CallerIdentity {
  if (typeof dom !== 'string' || typeof sub !== 'string') throw new CallerRefused('signed caller is incomplete');
  if (!(CALLER_ROLES as readonly unknown[]).includes(role)) throw new CallerRefused('signed caller names no known role');
  return { domain: dom, source: sub, role: role as CallerRole };
}
